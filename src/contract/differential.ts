// Differential mode: the same seed against two servers, exchanges paired by step, and where
// the answers differ in status, body shape or meaning (ids and timestamps normalised).
import { toCurl } from './curl.js';
import { head } from './head.js';
import { totalsOf, type Outcome, type RunResult } from './run/results.js';
import { createSecrets } from './secrets.js';
import type { Exchange, ReportedFailure } from './types.js';

export type DifferenceKind = 'status' | 'shape' | 'meaning';

export interface Difference {
  readonly key: string;
  readonly operationId: string;
  readonly kind: DifferenceKind;
  readonly first: string;
  readonly second: string;
  readonly exchange: Exchange;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Milliseconds since the epoch from 2001 on: the document's timestamps.
const isTime = (n: number): boolean => Number.isInteger(n) && n > 1e12;

/** The JSON types of a value, keys sorted; arrays by the distinct shapes of their items. */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${[...new Set(value.map(shapeOf))].sort().join('|')}]`;
  if (typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${k}:${shapeOf((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return typeof value;
}

/** The value with ids, UUIDs (tokens, session ids) and timestamps replaced by placeholders. */
export function normalise(value: unknown): unknown {
  if (typeof value === 'string') return OBJECT_ID.test(value) ? '<id>' : UUID.test(value) ? '<uuid>' : value;
  if (typeof value === 'number') return isTime(value) ? '<time>' : value;
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

function byKey(exchanges: readonly Exchange[]): Map<string, Exchange> {
  const seen = new Map<string, number>();
  const out = new Map<string, Exchange>();
  for (const e of exchanges) {
    const n = seen.get(e.key) ?? 0;
    seen.set(e.key, n + 1);
    out.set(n === 0 ? e.key : `${e.key}#${n}`, e);
  }
  return out;
}

const short = (text: string): string => (text.length > 160 ? `${head(text, 157)}...` : text);

export function compareExchanges(first: readonly Exchange[], second: readonly Exchange[]): { differences: Difference[]; unpaired: number } {
  const a = byKey(first);
  const b = byKey(second);
  const differences: Difference[] = [];
  let unpaired = 0;
  for (const [key, x] of a) {
    const y = b.get(key);
    if (!y?.response || !x.response) {
      if (!y) unpaired += 1;
      continue;
    }
    // An answer kept only in part (the run's memory budget) cannot be compared.
    if (x.response.partial || y.response.partial) {
      unpaired += 1;
      continue;
    }
    const base = { key, operationId: x.operationId, exchange: x };
    if (x.response.status !== y.response.status) {
      differences.push({ ...base, kind: 'status', first: String(x.response.status), second: String(y.response.status) });
      continue;
    }
    const [sx, sy] = [shapeOf(x.response.json), shapeOf(y.response.json)];
    if (sx !== sy) {
      differences.push({ ...base, kind: 'shape', first: short(sx), second: short(sy) });
      continue;
    }
    const [nx, ny] = [JSON.stringify(normalise(x.response.json)), JSON.stringify(normalise(y.response.json))];
    if (nx !== ny) differences.push({ ...base, kind: 'meaning', first: short(nx ?? ''), second: short(ny ?? '') });
  }
  unpaired += [...b.keys()].filter((k) => !a.has(k)).length;
  return { differences, unpaired };
}

/**
 * The first run's result with the differences added as notes of the check `differs`, one
 * outcome per operation. Differences are notes: neither server is the reference.
 */
export function withDifferences(first: RunResult, second: RunResult): RunResult & { readonly unpaired: number } {
  const { differences, unpaired } = compareExchanges(first.exchanges, second.exchanges);
  const secrets = createSecrets();
  const outcomes = new Map<string, Outcome>();
  for (const d of differences) {
    const o = outcomes.get(d.operationId) ?? { group: 'differential', operationId: d.operationId, check: 'differs', title: `Answers the same as ${second.baseUrl}`, exchanges: 0, failures: [] };
    const failure: ReportedFailure = {
      check: 'differs',
      operationId: d.operationId,
      title: o.title,
      message: `${d.kind} differs at step ${d.key}: ${first.baseUrl} gave ${d.first}, ${second.baseUrl} gave ${d.second}`,
      severity: 'warning',
      verdict: 'note',
      expected: `the same ${d.kind} from both servers`,
      citation: { source: 'gap-fill', ref: 'differential mode', text: 'The spec is the reference of the checks; two servers differing is reported for people to judge.' },
      key: d.key,
      // Masking by place (Authorization, cookies, tokens in the query, passwords in bodies) needs no list of secrets.
      curl: toCurl(secrets.maskRequest(d.exchange.request)),
      actual: { status: d.exchange.response?.status },
    };
    o.failures.push(failure);
    o.exchanges += 1;
    outcomes.set(d.operationId, o);
  }
  const all = [...first.outcomes, ...outcomes.values()];
  return { ...first, outcomes: all, ...totalsOf(all, first.strict, first.coverage.belowMinimum), unpaired };
}
