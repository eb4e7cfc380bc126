// How a check is written: a named function over one exchange and the facts of its step, returning
// failures (or why it could not judge); each failure cites the document and its verdict follows.
import type { Operation, Spec } from '../../spec/index.js';
import type { Citation, Verdict, Applied, Check, Exchange, Failure, Inconclusive } from '../types.js';

export function gapFill(ref: string, sentence: string): Citation {
  return { source: 'gap-fill', ref, text: sentence };
}

/**
 * The operation itself: its spec section (with what the spec says there, when given), or,
 * for an operation of real deployments that the spec does not list, its gap-fill.
 */
export function citeOperation(op: Operation, whatTheSpecSays?: string): Citation {
  if (op.specSection && !op.extension) {
    return { source: 'spec', ref: op.specSection, text: whatTheSpecSays ?? `${op.method.toUpperCase()} ${op.path}: ${op.summary}` };
  }
  return gapFill(op.operationId, op.gapFill ?? `${op.operationId} is not in the spec.`);
}

/** The operation's spec section, quoting the document's descriptions of these parameters (`limit: maximum number of records to return.`). */
export function citeParameters(op: Operation, ...names: string[]): Citation {
  const said = names.map((name) => {
    const description = String(op.parameters.find((p) => p.name === name)?.description ?? '').replace(/\.$/, '');
    return `${name}: ${description.charAt(0).toLowerCase()}${description.slice(1)}`;
  });
  return citeOperation(op, `${said.join('; ')}.`);
}

/** A node of the document's gap-fill when it has one (every error response has: the spec shows no errors), else the operation's. */
function citeNode(op: Operation, node: unknown, ref: string, whatTheSpecSays?: string): Citation {
  const sentence = (node as Json | undefined)?.['x-gap-fill'];
  return typeof sentence === 'string' ? gapFill(ref, sentence) : citeOperation(op, whatTheSpecSays);
}

export const citeParameter = (op: Operation, name: string, whatTheSpecSays?: string): Citation =>
  citeNode(op, op.parameters.find((p) => p.name === name), `${op.operationId} parameter "${name}"`, whatTheSpecSays);

export const citeResponse = (op: Operation, status: number | string, whatTheSpecSays?: string): Citation =>
  citeNode(op, op.responses[String(status)], `${op.operationId} response ${String(status)}`, whatTheSpecSays);

/** The documented statuses starting with `prefix` (`4`, `2`…): when each carries a gap-fill, another status of them is a gap too. */
export function citeStatuses(op: Operation, prefix: string): Citation {
  const codes = Object.keys(op.responses).filter((code) => code.startsWith(prefix));
  return codes.length > 0 && codes.every((code) => typeof (op.responses[code] as Json)['x-gap-fill'] === 'string') ? citeResponse(op, codes[0] ?? '') : citeOperation(op);
}

export function formatCitation(citation: Citation): string {
  if (citation.source === 'spec') return `spec ${citation.ref}: ${citation.text}`;
  return `${citation.source} (${citation.ref}): ${citation.text}`;
}

/** A citation a contract case names: an operationId, or a document location (`components/securitySchemes/apiToken`) with x-gap-fill or x-spec-section. */
export function resolveCitation(spec: Spec, name: string): Citation | undefined {
  const op = spec.operations.find((o) => o.operationId === name);
  if (op) return citeOperation(op);
  let node: unknown = spec.document;
  for (const token of name.split('/')) node = (node as Json | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === null || typeof node !== 'object') return undefined;
  const n = node as Json;
  if (typeof n['x-gap-fill'] === 'string') return gapFill(name, n['x-gap-fill']);
  if (typeof n['x-spec-section'] === 'string') return { source: 'spec', ref: n['x-spec-section'], text: name };
  return undefined;
}

/** Declares a check; its name stays a literal type and its facts type is the `run` parameter's. */
export function defineCheck<const Name extends string, Facts = void>(check: Check<Name, Facts>): Check<Name, Facts> {
  return check;
}

/** A check with the facts of one step (none for checks that take none). */
export function apply<Facts>(check: Check<string, Facts>, ...facts: Facts extends void ? [] : [Facts]): Applied {
  const given = facts[0] as Facts;
  return { name: check.name, title: check.title, ...(check.judgesUnreadBody ? { judgesUnreadBody: true } : {}), ...(check.operations ? { operations: check.operations } : {}), judge: (exchange, context) => check.run(exchange, context, given) };
}

/** What a check found: a failure but its names, its verdict following its citation unless given. */
export type FailureInput = Pick<Failure, 'message' | 'expected' | 'citation'> & { readonly verdict?: Verdict };

export function failure(check: Pick<Check, 'name' | 'title'>, exchange: Exchange, input: FailureInput): Failure {
  // Verdicts follow provenance: what the document chose (a gap-fill) is a note, what the spec states a violation.
  const verdict = input.verdict ?? (input.citation.source === 'gap-fill' ? 'note' : 'violation');
  return {
    check: check.name,
    operationId: exchange.operationId,
    title: check.title,
    message: input.message,
    severity: verdict === 'violation' ? 'error' : 'warning',
    verdict,
    expected: input.expected,
    citation: input.citation,
  };
}

/** The check could not judge this exchange; the outcome says so instead of `ok`. */
export function inconclusive(reason: string): Inconclusive {
  return { inconclusive: reason };
}

export function isInconclusive<T>(judgement: readonly T[] | Inconclusive): judgement is Inconclusive {
  return !Array.isArray(judgement);
}

export type Json = Record<string, unknown>;

/** Why an exchange has no answer: the runner's own deadline, named as such (the spec sets no time to answer in), or what the connection did. */
export function noAnswer(exchange: Exchange): string {
  if (exchange.timedOutAfterMs !== undefined) {
    return `no answer within the runner's timeout of ${exchange.timedOutAfterMs} ms (--timeout); the specification states no time limit`;
  }
  return `no answer: ${exchange.error ?? 'none'}`;
}

/** Why a list could not be read from an answer, or undefined when it was. */
export function unreadable(exchange: Exchange): string | undefined {
  const status = exchange.response?.status;
  if (status === undefined) return noAnswer(exchange);
  if (status < 200 || status >= 300) return `answered ${status}`;
  if (exchange.error) return `the body was not judged: ${exchange.error}`;
  return Array.isArray(exchange.response?.json) ? undefined : 'the answer is not a JSON list';
}

/** The records of a list answer (none when it is not one). */
export const rows = (exchange: Exchange | undefined): Json[] => (exchange && !unreadable(exchange) ? (exchange.response?.json as unknown[]).filter((r): r is Json => typeof r === 'object' && r !== null) : []);

/** The value at a JSON pointer (`` for the value itself). */
export function valueAt(value: unknown, pointer: string): unknown {
  let at: unknown = value;
  for (const raw of pointer.split('/').slice(1)) at = typeof at === 'object' && at !== null ? (at as Json)[raw.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return at;
}

export function describeValue(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function citeOrder(op: Operation): Citation {
  if (op.parameters.some((p) => p.name === 'sortField')) return citeParameter(op, 'sortField');
  return op.gapFill ? gapFill(op.operationId, op.gapFill) : citeOperation(op);
}
