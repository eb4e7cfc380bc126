// What a run exercised, from its exchanges and outcomes, against the document: per operation the
// requests sent, each documented status seen or not, each security scheme tried, each query
// parameter sent, each spec section some check judged an answer by; totals; what did not run.
import { responseSpecView, type Operation, type Schema, type Spec } from '../../spec/index.js';
import { isWrongCredentials } from '../client/credentials.js';
import type { Exchange } from '../types.js';
import { statusOf, type Outcome } from './results.js';

export type OperationCoverage = ReturnType<typeof operationCoverage>;
export type Coverage = ReturnType<typeof coverageOf>;

type Node = Record<string, unknown>;

/** Every `x-spec-section` in a schema (a spec view or a request body), by walking it. */
function sectionsIn(node: unknown, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (node === null || typeof node !== 'object' || seen.has(node)) return into;
  seen.add(node);
  const section = (node as Node)['x-spec-section'];
  if (typeof section === 'string') into.add(section);
  for (const value of Object.values(node)) sectionsIn(value, into, seen);
  return into;
}

const statusMatches = (documented: string, status: number): boolean =>
  documented === String(status) || (/^[1-5]XX$/.test(documented) && documented[0] === String(status)[0]);

type Scheme = { readonly type?: string; readonly scheme?: string; readonly in?: string; readonly name?: string } | undefined;

/** Whether a request carried credentials of a security scheme of the document (where the scheme says they go). */
function carries(exchange: Exchange, scheme: Scheme): boolean {
  const { headers, url } = exchange.request;
  if (scheme?.type === 'http') return (headers.authorization ?? '').toLowerCase().startsWith(`${(scheme.scheme ?? '').toLowerCase()} `);
  if (scheme?.type !== 'apiKey' || !scheme.name) return false;
  if (scheme.in === 'query') return new URL(url).searchParams.has(scheme.name);
  if (scheme.in === 'cookie') return (headers.cookie ?? '').split(/;\s*/).some((c) => c.startsWith(`${scheme.name ?? ''}=`));
  return headers[scheme.name.toLowerCase()] !== undefined;
}

function operationCoverage(op: Operation, schemes: Readonly<Record<string, Scheme>>, all: readonly Exchange[], outcomes: readonly Outcome[]) {
  const exchanges = all.filter((e) => e.operationId === op.operationId);
  const answered = exchanges.filter((e) => e.response);
  const statuses = Object.keys(op.responses).filter((s) => s !== 'default');
  const seen = new Set(answered.map((e) => e.response?.status ?? 0));
  const names = [...new Set(op.security.flatMap((alternative) => Object.keys(alternative)))];
  const carried = (e: Exchange): string[] => names.filter((name) => carries(e, schemes[name]));
  const auth = names.map((method) => {
    const tried = exchanges.filter((e) => carried(e).includes(method));
    return { method, valid: tried.some((e) => !isWrongCredentials(e.auth)), wrong: tried.some((e) => isWrongCredentials(e.auth)) };
  });
  // Without credentials is a try of its own; `valid` says it was sent.
  if (names.length > 0) auth.push({ method: 'none', valid: exchanges.some((e) => carried(e).length === 0), wrong: false });
  const sent = new Set(exchanges.flatMap((e) => [...new URL(e.request.url).searchParams.keys()]));
  const judged = outcomes.some((o) => o.operationId === op.operationId && ['passed', 'failed', 'noted'].includes(statusOf(o)));
  const own = new Set([...(op.specSection && !op.extension ? [op.specSection] : []), ...sectionsIn(op.requestBody?.schema)]);
  const byAnswer = new Map<string, boolean>();
  for (const [status, response] of Object.entries(op.responses)) {
    const view = responseSpecView(response);
    if (!view) continue;
    const hit = answered.some((e) => statusMatches(status, e.response?.status ?? 0) && e.response?.json !== undefined);
    for (const section of sectionsIn(view as Schema)) byAnswer.set(section, (byAnswer.get(section) ?? false) || hit);
  }
  const sections = [...new Set([...own, ...byAnswer.keys()])].sort().map((section) => ({
    section,
    covered: (own.has(section) && judged) || byAnswer.get(section) === true,
  }));
  return {
    operationId: op.operationId,
    requests: exchanges.length,
    statuses: statuses.map((status) => ({ status, seen: [...seen].some((s) => statusMatches(status, s)) })),
    /** Statuses answered that the document does not list. */
    undocumented: [...seen].filter((s) => !statuses.some((d) => statusMatches(d, s))).sort(),
    /** Each security scheme (`none`: without credentials), valid and deliberately wrong credentials of it sent or not. */
    auth,
    parameters: op.parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, exercised: sent.has(p.name) })),
    /** Each spec section behind the operation and whether a check judged an answer by it. */
    sections,
  };
}

export function coverageOf(spec: Spec, exchanges: readonly Exchange[], outcomes: readonly Outcome[], minimum?: number) {
  const schemes = (spec.document.components?.securitySchemes ?? {}) as Readonly<Record<string, Scheme>>;
  const operations = spec.operations.map((op) => operationCoverage(op, schemes, exchanges, outcomes));
  const statuses = operations.flatMap((o) => o.statuses);
  const seen = statuses.filter((s) => s.seen).length;
  const percent = statuses.length === 0 ? 100 : Math.round((seen / statuses.length) * 1000) / 10;
  const sectionCovered = new Map<string, boolean>();
  for (const { section, covered } of operations.flatMap((o) => o.sections)) sectionCovered.set(section, (sectionCovered.get(section) ?? false) || covered);
  const notRun = new Map<string, { kind: 'skipped' | 'inconclusive'; reason: string; checks: string[] }>();
  for (const o of outcomes) {
    const status = statusOf(o);
    const reason = status === 'skipped' ? o.skipped : status === 'inconclusive' ? o.inconclusive : undefined;
    if (reason === undefined || (status !== 'skipped' && status !== 'inconclusive')) continue;
    const key = `${status}\u0000${reason}`;
    const entry = notRun.get(key) ?? { kind: status, reason, checks: [] };
    entry.checks.push(`${o.operationId} ${o.check}`);
    notRun.set(key, entry);
  }
  return {
    operations,
    totals: {
      operations: { covered: operations.filter((o) => o.statuses.some((s) => s.seen) || o.undocumented.length > 0).length, of: operations.length },
      statuses: { covered: seen, of: statuses.length, percent },
      sections: { covered: [...sectionCovered.values()].filter(Boolean).length, of: sectionCovered.size },
    },
    notRun: [...notRun.values()],
    ...(minimum === undefined ? {} : { minimum }),
    belowMinimum: minimum !== undefined && percent < minimum,
  };
}
