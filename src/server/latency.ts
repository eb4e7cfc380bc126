import type { components } from '../spec/control-api-types.js';
import type { ErrorDetail } from '../spec/types.js';

/** Milliseconds: fixed, or `[min, max]` drawn for each answer (the control document's `Latency`). */
export type Latency = components['schemas']['Latency'];

/** The wait of one answer: the fixed value, or a draw from `[min, max]` (both inclusive) by the seeded source. */
export function drawLatency(latency: Latency | undefined, random: () => number): number {
  if (latency === undefined) return 0;
  if (typeof latency === 'number') return latency;
  const [min = 0, max = min] = latency;
  return min + Math.floor(random() * (max - min + 1));
}

/** A `[min, max]` whose min is above its max, as a detail of a refused body (the schema cannot say it). */
export function rangeProblem(latency: Latency | undefined, name: string): ErrorDetail[] {
  return Array.isArray(latency) && (latency[0] ?? 0) > (latency[1] ?? 0) ? [{ location: 'body', name, problem: 'must be [min, max] with min not above max' }] : [];
}

/** Waits `ms`; injected in tests so nothing sleeps. */
export type Sleep = (ms: number) => Promise<void>;
