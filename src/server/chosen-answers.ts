import type { FastifyRequest } from 'fastify';
import { ApiError, type ErrorFactory } from '../errors.js';
import type { Fault } from '../spec/control-types.js';
import type { ApiErrorBody, Operation } from '../spec/index.js';
import type { FaultStore } from '../store/state.js';
import { documentedHeaders, type HeaderValues } from './documented-headers.js';
import type { ErrorMessage } from './error-messages.js';
import type { RequestCheck } from './routes.js';
import { drawLatency } from './runtime-config.js';
import { ScriptedAnswer } from './scripted-answer.js';

// Answers chosen before a call of the monitoring API is looked at: the call's own `Prefer`
// header, and a fault the control API injected. Both answer an error the document gives the
// status, with its documented headers, before authentication and rate limits, changing nothing.

/** The most a `Prefer: latency=` may ask for: the control document's largest latency. */
export const MAX_PREFERRED_LATENCY_MS = 60_000;

/** The latency a request asked for with `Prefer: latency=`, read by the latency hook. */
export const preferredLatency = new WeakMap<FastifyRequest, number>();

/**
 * The preferences of a `Prefer` header (RFC 7240): `name=value` tokens separated by commas,
 * parameters after `;` ignored, names in lower case, quotes removed; the first of a name counts.
 */
export function parsePrefer(header: string | string[]): Map<string, string> {
  const preferences = new Map<string, string>();
  for (const item of [header].flat().join(',').split(',')) {
    const [token = ''] = item.split(';', 1);
    const at = token.indexOf('=');
    const name = (at < 0 ? token : token.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? '' : token.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name !== '' && !preferences.has(name)) preferences.set(name, value);
  }
  return preferences;
}

/** The Error body the document gives a status of the operation: its response's first example. */
function documentedBody(operation: Operation, status: number): ApiErrorBody | undefined {
  const media = operation.responses[String(status)]?.content?.['application/json'];
  // The document is dereferenced: an example is a value, never a $ref.
  const example = media?.example ?? (Object.values(media?.examples ?? {})[0] as { value?: unknown } | undefined)?.value;
  const body = example as ApiErrorBody | undefined;
  return body !== undefined && body.status === status && typeof body.code === 'string' ? body : undefined;
}

export interface PreferOptions {
  readonly errors: ErrorFactory;
  readonly messages: ErrorMessage;
  /** Whether the request may steer the fake: the control API's rule (host-origin-guard.ts). */
  readonly heard: (request: FastifyRequest) => boolean;
  /** The answer of `code=` the operation does not document: INJECTED_FAULT's (503). */
  readonly injectedFault: ApiErrorBody;
}

/**
 * Honours a one-request `Prefer` header, as Prism does: `code=<status>` answers that status
 * with the document's Error body for it and the examples of its headers (statuses the operation
 * documents, and 503, the status of INJECTED_FAULT), `latency=<ms>` delays the answer. It is
 * heard from those the control API answers (loopback clients naming this server, and in a
 * browser pages of allowed origins); from anyone else it is ignored.
 * A preference the fake cannot honour gets 400 INVALID_PARAMETER naming the header; so does
 * Prism's `example=`, rather than being ignored: the fake answers from its data.
 */
export function createPreferCheck(operation: Operation, options: PreferOptions): RequestCheck {
  const bodies = new Map<number, ApiErrorBody>([[options.injectedFault.status, options.injectedFault]]);
  for (const status of Object.keys(operation.responses).map(Number)) {
    const body = status >= 400 ? documentedBody(operation, status) : undefined;
    if (body) bodies.set(status, body);
  }
  const headers = documentedHeaders(operation);
  const statuses = [...bodies.keys()].sort((a, b) => a - b).join(', ');
  const refuse = (problem: string) =>
    options.errors('INVALID_PARAMETER', `header "prefer" ${problem}`, { details: [{ location: 'header', name: 'prefer', problem }] });

  return function honourPrefer(request) {
    const header = request.headers.prefer;
    if (header === undefined || !options.heard(request)) return;
    const preferences = parsePrefer(header);
    const example = preferences.get('example');
    if (example !== undefined) {
      const message = options.messages('INVALID_PARAMETER', 'preferExample', { name: JSON.stringify(example.slice(0, 40)) });
      throw options.errors('INVALID_PARAMETER', message, { details: [{ location: 'header', name: 'prefer', problem: message }] });
    }
    const latency = preferences.get('latency');
    if (latency !== undefined) {
      if (!/^[0-9]{1,5}$/.test(latency) || Number(latency) > MAX_PREFERRED_LATENCY_MS) throw refuse(`latency must be whole milliseconds from 0 to ${MAX_PREFERRED_LATENCY_MS}`);
      preferredLatency.set(request, Number(latency));
    }
    const code = preferences.get('code');
    if (code === undefined) return;
    const body = /^[0-9]{3}$/.test(code) ? bodies.get(Number(code)) : undefined;
    if (!body) throw refuse(`code must be an error status ${operation.operationId} documents (${statuses}), not "${code.slice(0, 20)}"`);
    throw ApiError.fromBody(body, body.status, headers.get(body.status));
  };
}

/**
 * The error a fault answers with: its own Error body, or INJECTED_FAULT with its message, and
 * the headers the document gives its status (a 429's `Retry-After`), as a `Prefer: code=` answer has.
 */
function faultError(fault: Fault, headers: HeaderValues | undefined): ApiError {
  return fault.body === undefined
    ? new ApiError('INJECTED_FAULT', fault.status, fault.message, headers ? { headers } : {})
    : ApiError.fromBody(fault.body, fault.status, headers);
}

/**
 * Answers a call of the operation with its injected fault, if one takes it: the first check
 * of the route, before authentication, rate limits and the handler, so a faulted call changes
 * nothing. An error at once is thrown as it is; a wait, a dropped connection or a hang as a
 * ScriptedAnswer, with the wait drawn from `random` (the fake's seeded source).
 */
export function createFaultCheck(faults: FaultStore, operation: Operation, random: () => number): RequestCheck {
  const { operationId } = operation;
  const headers = documentedHeaders(operation);
  return function injectFault() {
    if (faults.size === 0) return;
    const fault = faults.take(operationId);
    if (!fault) return;
    const error = faultError(fault, headers.get(fault.status));
    const action = fault.action ?? 'error';
    if (action === 'error' && fault.delayMs === undefined) throw error;
    throw new ScriptedAnswer(action, drawLatency(fault.delayMs, random), error);
  };
}
