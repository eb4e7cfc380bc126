import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorFactory } from '../errors.js';
import type { Fault } from '../spec/control-types.js';
import type { ApiErrorBody, Operation } from '../spec/index.js';
import type { RateLimitedRequest } from '../store/rate-limiter.js';
import type { FakeState, FaultStore } from '../store/state.js';
import { parseBasic } from './auth.js';
import type { ErrorMessage } from './error-answers.js';
import { routedPath } from './host-origin-guard.js';
import type { Latency, Sleep } from './options.js';
import type { RequestCheck } from './routes.js';

// The checks a call of the monitoring API passes before the guard and its handler: answers
// chosen for it (its own `Prefer` header, a fault the control API injected) and the rate limits.

/** The wait of one answer: the fixed value, or a draw from `[min, max]` (both inclusive) by the seeded source. */
export function drawLatency(latency: Latency | undefined, random: () => number): number {
  if (latency === undefined) return 0;
  if (typeof latency === 'number') return latency;
  const [min = 0, max = min] = latency;
  return min + Math.floor(random() * (max - min + 1));
}

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

/**
 * Honours a one-request `Prefer` header, as Prism does: `code=<status>` answers that status with
 * the document's Error body and header examples (a status the operation documents, or INJECTED_FAULT's 503),
 * `latency=<ms>` delays the answer. Heard only from those the control API answers (`heard`). A preference
 * it cannot honour, Prism's `example=` too, gets 400 naming the header.
 */
export function createPreferCheck(operation: Operation, options: { errors: ErrorFactory; messages: ErrorMessage; heard: (request: FastifyRequest) => boolean; maxLatencyMs: number }): RequestCheck {
  const injectedFault = options.errors('INJECTED_FAULT', options.messages('INJECTED_FAULT', 'preferredStatus')).toBody();
  const bodies = new Map<number, ApiErrorBody>([[injectedFault.status, injectedFault]]);
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
      if (!/^[0-9]{1,9}$/.test(latency) || Number(latency) > options.maxLatencyMs) throw refuse(`latency must be whole milliseconds from 0 to ${options.maxLatencyMs}`);
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
 * Answers a call with its injected fault, if one takes it, before authentication, rate limits and
 * the handler, so a faulted call changes nothing. A wait, a drop or a hang is a ScriptedAnswer.
 */
export function createFaultCheck(faults: FaultStore, operation: Operation, random: () => number): RequestCheck {
  const { operationId } = operation;
  const headers = documentedHeaders(operation);
  return function injectFault() {
    if (faults.size === 0) return;
    const fault = faults.take(operationId);
    if (!fault) return;
    // Its own Error body, or INJECTED_FAULT with its message, and the document's headers of its status.
    const documented = headers.get(fault.status);
    const error = fault.body === undefined ? new ApiError('INJECTED_FAULT', fault.status, fault.message, { headers: documented }) : ApiError.fromBody(fault.body, fault.status, documented);
    const action = fault.action ?? 'error';
    if (action === 'error' && fault.delayMs === undefined) throw error;
    throw new ScriptedAnswer(action, drawLatency(fault.delayMs, random), error);
  };
}

/** Thrown by a check to answer other than at once (after `delayMs`, a drop, a hang); the error handler plays it. */
export class ScriptedAnswer extends Error {
  override readonly name = 'ScriptedAnswer';
  constructor(
    readonly action: NonNullable<Fault['action']>,
    readonly delayMs: number,
    readonly error: ApiError,
  ) {
    super(`scripted answer: ${action}`);
  }
}

export type ScriptedAnswers = ReturnType<typeof createScriptedAnswers>;

/** `hangLimitMs` bounds a hanging answer as the server's idle timeout would (`inject` has no socket to time out). */
export function createScriptedAnswers(options: { sleep: Sleep; hangLimitMs: number; send: (reply: FastifyReply, error: ApiError) => FastifyReply }) {
  const hanging = new Set<FastifyReply>();
  return {
    /** Plays the answer on this reply; resolves once it is sent, dropped, or left hanging. */
    async play(reply: FastifyReply, answer: ScriptedAnswer): Promise<FastifyReply> {
      if (answer.delayMs > 0) await options.sleep(answer.delayMs);
      if (answer.action === 'error') return options.send(reply, answer.error);
      reply.hijack();
      if (answer.action === 'drop' || reply.raw.destroyed) {
        reply.raw.destroy();
        return reply;
      }
      hanging.add(reply);
      const timer = setTimeout(() => reply.raw.destroy(), options.hangLimitMs).unref();
      reply.raw.once('close', () => {
        clearTimeout(timer);
        hanging.delete(reply);
      });
      return reply;
    },
    /** Closes every connection left hanging (at shutdown, so closing the server never waits on them). */
    closeAll(): void {
      for (const reply of hanging) reply.raw.destroy();
    },
  };
}

/** Response headers by name (lower case), as an answer sends them. */
export type HeaderValues = Readonly<Record<string, string>>;

/**
 * A response's headers that have an example and go with `sentWith` (the `x-messages` key of the one
 * refusal a header goes with; undefined: with every answer of the status), with their examples.
 */
function headersWithExamples(headers: Readonly<Record<string, unknown>> | undefined, sentWith: string | undefined): [string, string][] {
  return Object.entries(headers ?? {}).flatMap(([name, header]) => {
    const { schema, example = schema?.example, 'x-sent-with': only } = header as { example?: unknown; schema?: { example?: unknown }; 'x-sent-with'?: unknown };
    return example === undefined || only !== sentWith ? [] : [[name.toLowerCase(), String(example)] as [string, string]];
  });
}

/**
 * The headers the document gives each status of the operation, from their examples (a 429's
 * `Retry-After`), but those it sends with one refusal only: an answer the fake makes up (a
 * `Prefer: code=` answer, an injected fault) carries what the document says its status carries.
 */
export function documentedHeaders(operation: Operation): ReadonlyMap<number, HeaderValues> {
  return new Map(Object.entries(operation.responses).map(([status, response]) => [Number(status), Object.fromEntries(headersWithExamples(response.headers, undefined))]));
}

/** The headers the document sends with one refusal only (`x-sent-with` its message's key), from their examples. */
export function headersSentWith(operations: readonly Operation[], message: string): HeaderValues {
  return Object.fromEntries(operations.flatMap((operation) => Object.values(operation.responses).flatMap((response) => headersWithExamples(response.headers, message))));
}

/**
 * The checks that count a request against the limits (spec section 8; the keys are the control
 * document's `RateLimitKey`), in the order they run.
 */
export function createRateLimitChecks(state: FakeState, errors: ErrorFactory, messages: ErrorMessage): Record<'beforeAuth' | 'afterAuth' | 'bodyLogin', RequestCheck> {
  const refusal = (seconds: number) => {
    const text = String(seconds);
    return errors('RATE_LIMITED', messages('RATE_LIMITED', 'blocked', { seconds: text }), { headers: { 'retry-after': text } });
  };
  // The refusal is returned, not thrown (see RequestCheck): a flood of blocked requests pays no throw.
  const admit = (request: RateLimitedRequest): ApiError | undefined => {
    const decision = state.data.admit(request);
    return decision.allowed ? undefined : refusal(decision.retryAfterSeconds);
  };
  return {
    // By IP address, URI and the Basic login, before authentication, so failed log-ins count too.
    beforeAuth: (request) => {
      const authorization = request.headers.authorization;
      const login = authorization ? parseBasic(authorization)?.login : undefined;
      // The path only (a query string may hold an API token, which must never reach the block log),
      // decoded as routed, so escaping a letter of the path does not make it another URI.
      return admit({ ip: request.ip, uri: routedPath(request.url), login: login || undefined });
    },
    afterAuth: (request) => {
      const user = request.caller?.user;
      return user ? admit({ user: user.id }) : undefined;
    },
    // By the login of a log-in body (parsed and valid by then), for operations without authentication.
    bodyLogin: (request) => {
      const login = request.caller ? undefined : (request.body as { login?: string } | undefined)?.login;
      return login ? admit({ login }) : undefined;
    },
  };
}
