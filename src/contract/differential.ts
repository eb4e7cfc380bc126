// Differential mode: the same seed against two servers, exchanges paired by step, and where
// the answers drift apart, grouped by kind with a count and one example each.
import { toCurl } from './curl.js';
import { failure, valueAt } from './checks/check.js';
import { totalsOf, type Outcome, type RunResult } from './run/results.js';
import { maskSecretFields, createSecrets } from '../shared/redaction/secret-values.js';
import { isSecretName, REPORT_MASK } from '../shared/redaction/secret-names.js';
import { bodyDigest } from './client/api-client.js';
import type { Exchange, ReceivedResponse } from './types.js';

/** The kinds in the order a report shows them, with their names. */
export const DRIFT_KINDS = {
  status: 'status differs',
  'field-missing': 'field missing',
  type: 'type differs',
  order: 'order differs',
  value: 'value differs',
} as const;
export type DriftKind = keyof typeof DRIFT_KINDS;

export interface Drift {
  readonly kind: DriftKind;
  /** A JSON pointer into the answer, `[]` standing for every item of an array; `` for the answer itself. */
  readonly path: string;
  /** What the first server gave there, in short. */
  readonly first: string;
  readonly second: string;
}

export type Answer = Pick<ReceivedResponse, 'status' | 'json'>;

const OBJECT_ID = /^[0-9a-f]{24}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_SHOWN = 160;
// Enough to see what is wrong with an answer; a hostile one with thousands of odd fields costs no more.
const MAX_PER_ANSWER = 20;

/** The value with ids, UUIDs (tokens, session ids) and timestamps replaced by placeholders. */
export function normalise(value: unknown): unknown {
  if (typeof value === 'string') return OBJECT_ID.test(value) ? '<id>' : UUID.test(value) ? '<uuid>' : value;
  // Milliseconds since the epoch from 2001 on: the document's timestamps.
  if (typeof value === 'number') return Number.isInteger(value) && value > 1e12 ? '<time>' : value;
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

const typeOf = (value: unknown): string => (value === undefined ? 'no JSON' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The JSON types found at each path, the items of an array under `[]`. */
function fieldTypes(value: unknown, path = '', out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const types = out.get(path) ?? new Set<string>();
  types.add(typeOf(value));
  out.set(path, types);
  if (Array.isArray(value)) for (const item of value) fieldTypes(item, `${path}/[]`, out);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) fieldTypes(v, `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`, out);
  return out;
}

/** Fields and types: a path is reported once, not again under a parent already reported. */
function structuralDrift(x: unknown, y: unknown): Drift[] {
  const a = fieldTypes(x);
  const b = fieldTypes(y);
  const drifts: Drift[] = [];
  const reported = new Set<string>();
  const underReported = (path: string): boolean => [...reported].some((r) => path.startsWith(`${r}/`));
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  // The items of a list empty on either side say nothing of fields: that is a difference of values.
  const itemsOnBothSides = (path: string): boolean =>
    [...path.matchAll(/\/\[\]/g)].every((m) => a.has(path.slice(0, m.index + 3)) && b.has(path.slice(0, m.index + 3)));
  for (const path of paths) {
    if (drifts.length >= MAX_PER_ANSWER) break;
    if (underReported(path) || !itemsOnBothSides(path)) continue;
    const ta = a.get(path);
    const tb = b.get(path);
    const shown = (t: Set<string> | undefined) => (t ? [...t].sort().join('|') : 'missing');
    if (!ta || !tb) drifts.push({ kind: 'field-missing', path, first: ta ? 'present' : 'missing', second: tb ? 'present' : 'missing' });
    else if (shown(ta) !== shown(tb)) drifts.push({ kind: 'type', path, first: shown(ta), second: shown(tb) });
    else continue;
    reported.add(path);
  }
  return drifts;
}

const short = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 3)}...` : text;
};

/** The first place where two normalised values of the same structure differ. */
function firstValueDrift(x: unknown, y: unknown, path = ''): Drift | undefined {
  if (JSON.stringify(x) === JSON.stringify(y)) return undefined;
  if (Array.isArray(x) && Array.isArray(y)) {
    if (x.length !== y.length) return { kind: 'value', path, first: `${x.length} item(s)`, second: `${y.length} item(s)` };
    for (let i = 0; i < x.length; i++) {
      const d = firstValueDrift(x[i], y[i], `${path}/${i}`);
      if (d) return d;
    }
  }
  if (x !== null && y !== null && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
    const [ox, oy] = [x as Record<string, unknown>, y as Record<string, unknown>];
    for (const k of new Set([...Object.keys(ox), ...Object.keys(oy)])) {
      // A field some items lack (the fields of all items together being the same) is still missing.
      if (!(k in ox) || !(k in oy)) return { kind: 'field-missing', path: `${path}/${k}`, first: k in ox ? 'present' : 'missing', second: k in oy ? 'present' : 'missing' };
      const d = firstValueDrift(ox[k], oy[k], `${path}/${k}`);
      if (d) return d;
    }
  }
  return { kind: 'value', path, first: short(x), second: short(y) };
}

/** The same items in another order: found at the answer itself when it is a list. */
function orderDrift(x: unknown, y: unknown): Drift | undefined {
  if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return undefined;
  const a = x.map((v) => JSON.stringify(v));
  const b = y.map((v) => JSON.stringify(v));
  if ([...a].sort().join('\n') !== [...b].sort().join('\n')) return undefined;
  const at = a.findIndex((v, i) => v !== b[i]);
  return { kind: 'order', path: `/${at}`, first: short(x[at]), second: short(y[at]) };
}

/** A drift found on the normalised answers, shown with the values as sent. */
function asSent(drift: Drift, first: unknown, second: unknown): Drift {
  if (drift.kind === 'field-missing' || (drift.kind === 'value' && drift.first.endsWith(' item(s)'))) return drift;
  return { ...drift, first: short(valueAt(first, drift.path)), second: short(valueAt(second, drift.path)) };
}

/** How the second answer differs from the first: nothing, a status, or its fields, types, order or values. */
export function driftOf(first: Answer, second: Answer): Drift[] {
  if (first.status !== second.status) return [{ kind: 'status', path: '', first: String(first.status), second: String(second.status) }];
  const structural = structuralDrift(first.json, second.json);
  if (structural.length > 0) return structural;
  const [x, y] = [normalise(first.json), normalise(second.json)];
  if (JSON.stringify(x) === JSON.stringify(y)) return [];
  const found = orderDrift(x, y) ?? firstValueDrift(x, y);
  return found ? [asSent(found, first.json, second.json)] : [];
}

export interface Difference extends Drift {
  readonly key: string;
  readonly operationId: string;
  readonly exchange: Exchange;
}

/** One kind of drift: how often, and the first place it was seen. */
export type DriftReport = ReturnType<typeof driftReport>;

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

export function compareExchanges(first: readonly Exchange[], second: readonly Exchange[]): { differences: Difference[]; compared: number; unpaired: number } {
  const a = byKey(first);
  const b = byKey(second);
  const differences: Difference[] = [];
  let unpaired = 0;
  let compared = 0;
  for (const [key, x] of a) {
    const y = b.get(key);
    if (!y?.response || !x.response) {
      if (!y) unpaired += 1;
      continue;
    }
    // Answers kept only in part (the run's memory budget) are compared by status and digest.
    if (x.response.partial || y.response.partial) {
      const drift = digestDrift(x.response, y.response);
      if (drift === undefined) unpaired += 1;
      else compared += 1;
      if (drift) differences.push({ ...drift, key, operationId: x.operationId, exchange: x });
      continue;
    }
    compared += 1;
    for (const drift of driftOf(x.response, y.response)) differences.push({ ...maskedDrift(drift), key, operationId: x.operationId, exchange: x });
  }
  unpaired += [...b.keys()].filter((k) => !a.has(k)).length;
  return { differences, compared, unpaired };
}

/** Two answers kept in part: a status drift, another body, nothing (`null`), or not comparable. */
function digestDrift(x: ReceivedResponse, y: ReceivedResponse): Drift | null | undefined {
  if (x.status !== y.status) return { kind: 'status', path: '', first: String(x.status), second: String(y.status) };
  const [a, b] = [bodyDigest(x), bodyDigest(y)];
  if (!a || !b) return undefined;
  return a === b ? null : { kind: 'value', path: '', first: 'one body', second: 'another (both kept only as a digest)' };
}

/** A value a drift shows under a field named like a secret, or shaped like a password hash, is masked: the server's secrets, not the run's. */
function maskedDrift(drift: Drift): Drift {
  if (drift.kind === 'status' || drift.kind === 'field-missing' || drift.kind === 'type') return drift;
  const underSecret = drift.path.split('/').some(isSecretName);
  const shown = (value: string): string => (underSecret ? `"${REPORT_MASK}"` : maskSecretFields(value, REPORT_MASK));
  return { ...drift, first: shown(drift.first), second: shown(drift.second) };
}

// Masking by place (Authorization, cookies, tokens in the query, passwords in bodies) needs no list of secrets.
const requestOf = (exchange: Exchange): string => toCurl(createSecrets().maskRequest(exchange.request));
const where = (d: Difference): string => `step ${d.key}${d.path ? ` at ${d.path}` : ''}`;

/**
 * The differences grouped by kind, in the order of DRIFT_KINDS (none when both answered the same),
 * each with its count and first example; the steps compared (answered by both servers), and those
 * not (run on one server only, or kept only in part).
 */
export function driftReport(compareWith: string, compared: { differences: readonly Difference[]; compared: number; unpaired: number }) {
  const groups = (Object.keys(DRIFT_KINDS) as DriftKind[]).flatMap((kind) => {
    const found = compared.differences.filter((d) => d.kind === kind);
    const first = found[0];
    if (!first) return [];
    const example = { step: first.key, operationId: first.operationId, path: first.path, first: first.first, second: first.second, request: requestOf(first.exchange) };
    return [{ kind, title: DRIFT_KINDS[kind], count: found.length, example }];
  });
  return { compareWith, compared: compared.compared, unpaired: compared.unpaired, groups };
}

/**
 * The first run's result with the drift added: one note of the check `differs` for each kind of
 * drift on each operation (its count and first example), and the drift report. Differences are
 * notes: neither server is the reference.
 */
export function withDifferences(first: RunResult, second: RunResult): RunResult & { readonly unpaired: number; readonly drift: DriftReport } {
  const compared = compareExchanges(first.exchanges, second.exchanges);
  const outcomes = new Map<string, Outcome>();
  const groups = new Map<string, Difference[]>();
  for (const d of compared.differences) {
    const key = `${d.operationId} ${d.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  for (const [, found] of groups) {
    const d = found[0]!;
    const o = outcomes.get(d.operationId) ?? { group: 'differential', operationId: d.operationId, check: 'differs', title: `Answers the same as ${second.baseUrl}`, exchanges: 0, failures: [] };
    const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
    const note = failure({ name: 'differs', title: o.title }, d.exchange, {
      message: `${DRIFT_KINDS[d.kind]} at ${where(d)}${more}: ${first.baseUrl} gave ${d.first}, ${second.baseUrl} gave ${d.second}`,
      expected: `the same answers from both servers (ids, UUIDs and timestamps aside)`,
      citation: { source: 'gap-fill', ref: 'differential mode', text: 'The spec is the reference of the checks; two servers differing is reported for people to judge.' },
    });
    o.failures.push({ ...note, key: d.key, curl: requestOf(d.exchange), actual: { status: d.exchange.response?.status } });
    o.exchanges += new Set(found.map((f) => f.key)).size;
    outcomes.set(d.operationId, o);
  }
  const all = [...first.outcomes, ...outcomes.values()];
  return { ...first, outcomes: all, ...totalsOf(all, first.strict, first.coverage.belowMinimum), unpaired: compared.unpaired, drift: driftReport(second.baseUrl, compared) };
}
