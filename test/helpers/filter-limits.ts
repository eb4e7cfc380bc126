import { filterLimits, loadSpec, type FilterLimits } from '../../src/spec/index.js';

const limits = filterLimits((await loadSpec()).document);
if (!limits) throw new Error("The kit's document states no x-filter-limits.");

/** The event log filter's limits as the kit's document states them. */
export const FILTER_LIMITS: FilterLimits = limits;
