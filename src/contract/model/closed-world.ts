// A closed world: a window of a list operation (the event log, the block log) small enough to
// read whole, read twice and agreed. Every later query is confined to it (its bounds are sent
// with it), so the runner knows the exact answer any query inside it must get: the model.
import { apply, unreadable } from '../checks/check.js';
import { limitHonoured, recordsConsistent } from '../checks/model-checks.js';
import type { PlanContext, Row } from '../plans/plan.js';
import type { Exchange } from '../types.js';
import { canonical, type Query } from './list-model.js';


export interface ClosedWorld {
  readonly operationId: string;
  /** The bounds every query inside the world carries (`from`, `to`); empty: the whole log. */
  readonly bounds: Query;
  /** Every record of the window, as the first whole read gave them. */
  readonly records: readonly Row[];
  /** The two reads that made it (they are judged against it as any query is). */
  readonly reads: readonly Exchange[];
}

/** No world could be closed: why, and whether that is the server's doing (inconclusive) or the data's (skip). */
export interface NoWorld {
  readonly why: string;
  readonly kind: 'inconclusive' | 'skip';
}

export interface WorldOptions {
  readonly operationId: string;
  /** The two reads: oldest first and newest first where the operation has a direction, else the same read twice. */
  readonly directions: readonly [Query, Query];
  /** Reads of one record at each end of the log, whose timestamps bound the bisection. */
  readonly ends: readonly [Query, Query];
}

const stamp = (r: Row): number | undefined => (typeof r.timestamp === 'number' && Number.isSafeInteger(r.timestamp) ? r.timestamp : undefined);

export const isNoWorld = <W extends object>(w: W | NoWorld): w is NoWorld => 'why' in w && 'kind' in w;

/**
 * Finds a window of at most `ctx.maxRecords` records: the whole log when it is that small, else
 * `from`/`to` bisected from the newest end (new records arrive after it, and old ones may
 * expire), and reads it in both directions. Every read names its limit, which limit-honoured
 * judges; a disagreement between the reads is a finding of records-consistent.
 */
export async function closeWorld(ctx: PlanContext, options: WorldOptions): Promise<ClosedWorld | NoWorld> {
  const { operationId } = options;
  const cap = ctx.maxRecords;
  let reads = 0;
  const read = async (query: Query, limit: number): Promise<Exchange> => {
    const q = { ...query, limit: String(limit) };
    return ctx.send({ operationId, key: `${operationId}/world-${reads++}`, query: q }, { checks: [apply(limitHonoured, { query: q })] });
  };
  const list = (exchange: Exchange): Row[] | string => unreadable(exchange) ?? (exchange.response?.json as Row[]).filter((r) => typeof r === 'object' && r !== null);
  const count = async (bounds: Query): Promise<number | string> => {
    const got = list(await read(bounds, cap + 1));
    return typeof got === 'string' ? got : got.length;
  };

  /** `from` raised from the oldest record until the window up to the newest holds at most `cap` records. */
  const bisect = async (): Promise<Query | NoWorld> => {
    const ends = [list(await read(options.ends[0], 1)), list(await read(options.ends[1], 1))];
    const times = ends.flatMap((e) => (typeof e === 'string' ? [] : e.map(stamp))).filter((t): t is number => t !== undefined);
    if (times.length === 0) return { why: 'no record of the log has a timestamp to bound a window by', kind: 'inconclusive' };
    const newest = Math.max(...times);
    let lo = Math.min(...times); // too many records from here (the whole log)
    let hi = newest; // few enough from here, unless a single instant holds too many
    const at = async (from: number) => count({ from: String(from), to: String(newest) });
    const top = await at(hi);
    if (typeof top === 'string') return { why: `the window could not be read: ${top}`, kind: 'inconclusive' };
    if (top > cap) return { why: `more than ${cap} records share the timestamp ${newest}: raise --max-records`, kind: 'inconclusive' };
    // A window of half the cap or more is enough: the bisection stops there.
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const n = await at(mid);
      if (typeof n === 'string') return { why: `the window could not be read: ${n}`, kind: 'inconclusive' };
      if (n > cap) lo = mid;
      else {
        hi = mid;
        if (n * 2 >= cap) break;
      }
    }
    return { from: String(hi), to: String(newest) };
  };

  const whole = await count({});
  if (typeof whole === 'string') return { why: `the log could not be read: ${whole}`, kind: 'inconclusive' };
  const bounds = whole > cap ? await bisect() : {};
  if (isNoWorld(bounds)) return bounds;
  const first = await read({ ...bounds, ...options.directions[0] }, cap + 1);
  const second = await read({ ...bounds, ...options.directions[1] }, cap + 1);
  const one = list(first);
  const other = list(second);
  if (typeof one === 'string') return { why: `the window could not be read: ${one}`, kind: 'inconclusive' };
  if (typeof other === 'string') return { why: `the window could not be read twice: ${other}`, kind: 'inconclusive' };
  if (one.length > cap) return { why: `the window read ${one.length} records after it counted at most ${cap}`, kind: 'inconclusive' };
  const disagreement = differenceOf(one, other);
  ctx.evaluate(second, { checks: [apply(recordsConsistent, { query: options.directions[1], disagreement })] });
  if (disagreement) return { why: `the two reads of the window disagree: ${disagreement}`, kind: 'inconclusive' };
  return { operationId, bounds, records: one, reads: [first, second] };
}

/** How two whole reads of the same window differ as sets of records (contents included), or undefined when they agree. */
function differenceOf(one: readonly Row[], other: readonly Row[]): string | undefined {
  const counts = new Map<string, number>();
  for (const r of one) counts.set(canonical(r), (counts.get(canonical(r)) ?? 0) + 1);
  for (const r of other) counts.set(canonical(r), (counts.get(canonical(r)) ?? 0) - 1);
  const onlyFirst = [...counts.values()].filter((n) => n > 0).reduce((a, n) => a + n, 0);
  const onlySecond = [...counts.values()].filter((n) => n < 0).reduce((a, n) => a - n, 0);
  if (onlyFirst === 0 && onlySecond === 0) return undefined;
  return `${one.length} and ${other.length} records; ${onlyFirst} only in the first read, ${onlySecond} only in the second`;
}
