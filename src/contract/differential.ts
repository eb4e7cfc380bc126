// Differential mode: the same seed against two servers, exchanges paired by step, and where
// the answers drift apart (drift.ts), grouped by kind with a count and one example each.
import { toCurl } from './curl.js';
import { DRIFT_KINDS, driftOf, type Drift, type DriftKind } from './drift.js';
import { totalsOf, type Outcome, type RunResult } from './run/results.js';
import { maskSecretFields } from '../shared/redaction/secret-fields.js';
import { isSecretName, REPORT_MASK } from '../shared/redaction/secret-names.js';
import { createSecrets } from '../shared/redaction/secret-values.js';
import { bodyDigest } from './client/retention.js';
import type { Exchange, ReceivedResponse, ReportedFailure } from './types.js';

export { normalise } from './drift.js';

export interface Difference {
  readonly key: string;
  readonly operationId: string;
  readonly kind: DriftKind;
  /** Where in the answer (a JSON pointer, `[]` for every item of a list). */
  readonly path: string;
  readonly first: string;
  readonly second: string;
  readonly exchange: Exchange;
}

/** One kind of drift: how often, and the first place it was seen. */
export interface DriftGroup {
  readonly kind: DriftKind;
  readonly title: string;
  readonly count: number;
  readonly example: { readonly step: string; readonly operationId: string; readonly path: string; readonly first: string; readonly second: string; readonly request: string };
}

export interface DriftReport {
  readonly compareWith: string;
  /** Steps answered by both servers and compared. */
  readonly compared: number;
  /** Steps run on one server only, or kept only in part. */
  readonly unpaired: number;
  /** The kinds found, in the order of DRIFT_KINDS; empty when both answered the same. */
  readonly groups: readonly DriftGroup[];
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

/**
 * The values a drift shows are pieces of bodies: a value under a field named like a secret, and a
 * string shaped like a password hash, are masked. The rule needs no list of secrets: these are
 * the server's, not the run's. A status, a field present or missing and a type show no value.
 */
function maskedDrift(drift: Drift): Drift {
  if (drift.kind === 'status' || drift.kind === 'field-missing' || drift.kind === 'type') return drift;
  const underSecret = drift.path.split('/').some(isSecretName);
  const shown = (value: string): string => (underSecret ? `"${REPORT_MASK}"` : maskSecretFields(value, REPORT_MASK));
  return { ...drift, first: shown(drift.first), second: shown(drift.second) };
}

// Masking by place (Authorization, cookies, tokens in the query, passwords in bodies) needs no list of secrets.
const requestOf = (exchange: Exchange): string => toCurl(createSecrets().maskRequest(exchange.request));
const where = (d: Difference): string => `step ${d.key}${d.path ? ` at ${d.path}` : ''}`;

/** The differences grouped by kind, each with its count and first example. */
export function driftReport(compareWith: string, compared: { differences: readonly Difference[]; compared: number; unpaired: number }): DriftReport {
  const groups = (Object.keys(DRIFT_KINDS) as DriftKind[]).flatMap((kind): DriftGroup[] => {
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
    const failure: ReportedFailure = {
      check: 'differs',
      operationId: d.operationId,
      title: o.title,
      message: `${DRIFT_KINDS[d.kind]} at ${where(d)}${more}: ${first.baseUrl} gave ${d.first}, ${second.baseUrl} gave ${d.second}`,
      severity: 'warning',
      verdict: 'note',
      expected: `the same answers from both servers (ids, UUIDs and timestamps aside)`,
      citation: { source: 'gap-fill', ref: 'differential mode', text: 'The spec is the reference of the checks; two servers differing is reported for people to judge.' },
      key: d.key,
      curl: requestOf(d.exchange),
      actual: { status: d.exchange.response?.status },
    };
    o.failures.push(failure);
    o.exchanges += new Set(found.map((f) => f.key)).size;
    outcomes.set(d.operationId, o);
  }
  const all = [...first.outcomes, ...outcomes.values()];
  return { ...first, outcomes: all, ...totalsOf(all, first.strict, first.coverage.belowMinimum), unpaired: compared.unpaired, drift: driftReport(second.baseUrl, compared) };
}
