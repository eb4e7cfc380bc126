import { filterLimits, journalLimits, loadSpec, monitoringApiPath, type FilterLimits, type Spec } from '../spec/index.js';
import type { JournalBodyLimits } from '../store/request-journal.js';

// What the server takes from the documents beyond their operations, with the kit's own document
// for what a document given in its place lacks.

/** The fault defaults of the control API document (FaultSpec), and how many faults may be in force at once. */
export function faultDefaults(controlSpec: Spec): { status: number; message: string; capacity: number } {
  type Properties = Record<string, { default?: unknown; maxItems?: unknown }>;
  const schemas = controlSpec.document.components?.schemas;
  const properties = (schemas?.FaultSpec as { properties?: Properties })?.properties;
  const status = properties?.status?.default;
  const message = properties?.message?.default;
  if (typeof status !== 'number' || typeof message !== 'string') throw new Error('The control API document gives FaultSpec no defaults.');
  // The most faults in force at once: as many as a snapshot may hold.
  const capacity = (schemas?.Snapshot as { properties?: Properties })?.properties?.faults?.maxItems;
  return { status, message, capacity: typeof capacity === 'number' ? capacity : Infinity };
}

/** How many requests the journal keeps unless told otherwise: listRequests' `x-default-journal-size` in the control API document. */
export const journalSizeDefault = (controlSpec: Spec): number => journalLimits(controlSpec.document).defaultSize;

/** How much of the answers' bodies the journal keeps, as the control API document states it (see journalLimits). */
export function journalBodyLimits(controlSpec: Spec): JournalBodyLimits {
  const { perBody, total } = journalLimits(controlSpec.document);
  return { perBody, total };
}

/** The kit's own document at `path`, for what a document given in its place lacks; none when it is the kit's. */
export const kitFallback = async (spec: Spec, path: string) => (spec.schemasChecked ? undefined : (await loadSpec(path)).document);

/** The document's filter limits; a document that states none gets the kit's own. */
export async function filterLimitsOf(spec: Spec): Promise<FilterLimits> {
  const own = filterLimits(spec.document);
  const kit = own ? undefined : await kitFallback(spec, monitoringApiPath);
  const limits = own ?? (kit && filterLimits(kit));
  if (!limits) throw new Error("The kit's document gives the event log filter no x-filter-limits.");
  return limits;
}
