// What a run keeps of each exchange after the step that sent it is done, for the differential
// comparison at the end: everything while a budget lasts, then only the head of the body and a digest. Against a server
// of huge answers the run's memory stays bounded; a normal run stays well within the budget.
import { createHash } from 'node:crypto';
import { normalise } from '../drift.js';
import { textHead } from '../../shared/text-head.js';
import type { Exchange, ReceivedResponse } from '../types.js';

/** A run against the fake keeps about 3 MB and 120,000 values; a hostile server's huge answers are kept in part. */
export const RETENTION_LIMITS = { chars: 8 * 1024 * 1024, values: 200_000, partialChars: 2048 } as const;

/** A digest of the normalised JSON body (ids, UUIDs and timestamps aside), as kept or computed now. */
export function bodyDigest(response: ReceivedResponse): string | undefined {
  if (response.digest) return response.digest;
  return response.json === undefined ? undefined : createHash('sha256').update(JSON.stringify(normalise(response.json))).digest('base64url');
}

/** The exchange as the run keeps it; `values` is the size of its parsed body. */
export type Retain = (exchange: Exchange, values: number) => Exchange;

/** `digests`: a compared run's, whose answers kept in part must still tell same from different. */
export function createRetention(digests: boolean, limits = RETENTION_LIMITS): Retain {
  let chars = 0;
  let values = 0;
  return (exchange, parsedValues) => {
    const response = exchange.response;
    if (!response) return exchange;
    const size = response.json === undefined ? 0 : parsedValues;
    if (chars + response.body.length <= limits.chars && values + size <= limits.values) {
      chars += response.body.length;
      values += size;
      return exchange;
    }
    const { json: _dropped, ...rest } = response;
    const digest = digests ? bodyDigest(response) : undefined;
    return { ...exchange, response: { ...rest, body: textHead(response.body, limits.partialChars), partial: true, ...(digest ? { digest } : {}) } };
  };
}
