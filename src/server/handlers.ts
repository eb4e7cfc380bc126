import { serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError, ErrorFactory } from '../errors.js';
import type { Clock } from '../shared/clock.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { fieldPathProblem } from '../shared/field-path.js';
import type { FilterLimits, Spec } from '../spec/index.js';
import type { ErrorDetail, EventLogQueryParams, EventLogRecord, LimitBlockLogQueryParams, OperationId, PayloadUpdate, SessionCredentials, User } from '../spec/types.js';
import type { StoredUser } from '../store/accounts.js';
import type { EventLogQuery } from '../store/event-log.js';
import type { Filter } from '../store/filter-check.js';
import { filterValueProblem } from '../store/filter-match.js';
import type { FakeState } from '../store/state.js';

import type { ErrorMessage } from './error-answers.js';
import type { SessionHosts } from './host-origin-guard.js';
import type { ResolvedFakeOptions } from './options.js';

// The monitoring API's handlers, keyed by operationId: the rules no schema states, then the store's answer.

/** What every handler may use besides the request. */
export interface HandlerContext {
  readonly state: FakeState;
  readonly errors: ErrorFactory;
  /** The messages of the document's error list (`x-messages`). */
  readonly messages: ErrorMessage;
  readonly spec: Spec;
  /** The event log filter's limits, from the document (or the kit's own when it states none). */
  readonly filterLimits: FilterLimits;
  readonly clock: Clock;
  readonly options: ResolvedFakeOptions;
  /** Cookie names: the session cookie of the document's cookie scheme, and the CSRF cookie. */
  readonly cookies: { readonly session: string; readonly csrf: string };
  /** Where sessions are created (createSession tells it), to explain a cookie a page did not send. */
  readonly sessionHosts: SessionHosts;
}

/**
 * The handler of one operation: the caller is authenticated and permitted (`request.caller`) and
 * the request valid by then. It returns the body of the operation's 2xx response; it throws ApiErrors.
 */
export type OperationHandler = (request: FastifyRequest, reply: FastifyReply, context: HandlerContext) => unknown;

/** Handlers keyed by operationId: the shared key between the document and the code. */
export type HandlerMap = Partial<Record<OperationId, OperationHandler>>;

// The record last shown per user, deep-frozen so that its JSON text is written once (body.ts) until the user's token changes.
const shown = new WeakMap<StoredUser, User>();

/** A user's record as the API shows it: never a password; the token only when one exists. */
export function userRecord(state: FakeState, user: StoredUser): User {
  const token = state.tokens.tokenOf(user.id);
  const last = shown.get(user);
  if (last && last.authenticationToken === token) return last;
  const record = deepFreeze(token === undefined ? { ...user.record } : { ...user.record, authenticationToken: token });
  shown.set(user, record);
  return record;
}

const COOKIE = { path: '/', sameSite: 'lax' } as const;
/** A cookie browsers are told to forget at once. */
const EXPIRED = { ...COOKIE, expires: new Date(0), maxAge: 0 };

function targetUser(params: unknown, { state, errors, messages }: HandlerContext) {
  const { id } = params as { id: string };
  const user = state.users.byId(id);
  if (!user) throw errors('NOT_FOUND', messages('NOT_FOUND', 'user', { id }));
  return user;
}

/** One refused query parameter: its name and what is wrong, for an ErrorDetail. */
export type QueryProblem = Required<Pick<ErrorDetail, 'name' | 'problem'>>;

/** The document's rule for time ranges that its schemas cannot state: `from` not above `to`. */
export function timeRangeProblem(from: number | undefined, to: number | undefined): QueryProblem | undefined {
  return from !== undefined && to !== undefined && from > to ? { name: 'from', problem: `must not be greater than "to" (${from} > ${to})` } : undefined;
}

/** A refused query as one 400: INVALID_FILTER when the filter is among the problems, else INVALID_PARAMETER. */
export function queryRefused(problems: readonly QueryProblem[], errors: ErrorFactory): ApiError {
  const code = problems.some((p) => p.name === 'filter') ? 'INVALID_FILTER' : 'INVALID_PARAMETER';
  const message = problems.map((p) => `query parameter "${p.name}" ${p.problem}`).join('; ');
  return errors(code, message, {
    details: problems.map((p) => ({ location: 'query' as const, name: p.name, problem: p.problem })),
  });
}

const TYPES = { '1': 'snmp-trap', '2': 'mqtt-message' } as const satisfies Record<NonNullable<EventLogQueryParams['type']>, EventLogRecord['type']>;

/**
 * getEventLog's parameters, valid by the document's schemas, in the store's terms, checked by the
 * rules no schema states: `from` not above `to`, the filter language, field paths.
 */
export function eventLogQuery(params: EventLogQueryParams, limits: FilterLimits): { ok: true; query: EventLogQuery } | { ok: false; problems: QueryProblem[] } {
  const problems: QueryProblem[] = [];
  let filter: Filter | undefined;
  if (params.filter !== undefined) {
    const parsed = filterOf(params.filter, limits);
    if (typeof parsed === 'string') problems.push({ name: 'filter', problem: parsed });
    else filter = parsed;
  }
  const range = timeRangeProblem(params.from, params.to);
  if (range) problems.push(range);
  if (params.sortField !== undefined) {
    const problem = fieldPathProblem(params.sortField);
    if (problem) problems.push({ name: 'sortField', problem });
  }
  if (problems.length > 0) return { ok: false, problems };
  const { from, to, inverse, sortDirection, sortField, type } = params;
  // One literal of a fixed shape: spreading a partial object and adding fields cost V8 its
  // slow path (about 5 µs a request, `npm run bench:profile`).
  const query: EventLogQuery = { filter, from, to, inverse, sortDirection, sortField, skip: countOf(params.skip), limit: countOf(params.limit), type: type === undefined ? undefined : TYPES[type] };
  return { ok: true, query };
}

/** A count parameter: digits, by the document's schema. */
const countOf = (text: string | undefined) => (text === undefined ? undefined : Number(text));

/** The filter of its JSON text, or why it is refused. */
function filterOf(text: string, limits: FilterLimits): Filter | string {
  if (text.length > limits.maxLength) return `is longer than ${limits.maxLength} characters`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  return filterValueProblem(value, limits) ?? (value as Filter);
}

/** Every handler of the fake, keyed by operationId. */
export const builtInHandlers: HandlerMap = {
  getCurrentUser: (request, _reply, { state }) => userRecord(state, request.caller!.user),

  createSession: (request, reply, { state, errors, messages, cookies, sessionHosts }) => {
    const { login, password } = request.body as SessionCredentials;
    const user = state.users.verify(login, password);
    if (!user) throw errors('UNAUTHENTICATED', messages('UNAUTHENTICATED', 'loginWrong'));
    const session = state.sessions.create(user.id);
    sessionHosts.created(session.id, request);
    reply.header('set-cookie', [
      serialize(cookies.session, session.id, { ...COOKIE, httpOnly: true }),
      // Readable by the page, which sends it back in x-csrf-token.
      serialize(cookies.csrf, session.csrf, COOKIE),
    ]);
    return session.id;
  },

  deleteSession: (request, reply, { state, cookies }) => {
    const { session } = request.caller!;
    if (session) state.sessions.delete(session.id);
    reply.header('set-cookie', [serialize(cookies.session, '', EXPIRED), serialize(cookies.csrf, '', EXPIRED)]);
  },

  createAuthToken: (request, _reply, context) => context.state.tokens.issue(targetUser(request.params, context).id),

  revokeAuthToken: (request, _reply, context) => {
    context.state.tokens.revoke(targetUser(request.params, context).id);
  },

  getEventLog: (request, _reply, { state, errors, filterLimits }) => {
    const parsed = eventLogQuery(request.query as EventLogQueryParams, filterLimits);
    if (!parsed.ok) throw queryRefused(parsed.problems, errors);
    return state.data.events.query(parsed.query);
  },

  updateEventLogPayload: (request, _reply, { state, errors, messages }: HandlerContext) => {
    const { id } = request.params as { id: string };
    const result = state.data.events.updatePayload(id, request.body as PayloadUpdate);
    if (result.ok) return;
    if (result.reason === 'not-found') throw errors('NOT_FOUND', messages('NOT_FOUND', 'record', { id }));
    throw errors('NOT_AN_SNMP_RECORD', messages('NOT_AN_SNMP_RECORD', 'notSnmp', { id, type: result.type }));
  },

  // The parameters are valid by the document's schemas (integers, booleans); `from` above `to` is the one rule left.
  getLimitBlockLog: (request, _reply, { state, errors }) => {
    const query = request.query as LimitBlockLogQueryParams;
    const range = timeRangeProblem(query.from, query.to);
    if (range) throw queryRefused([range], errors);
    return state.data.blocks.query(query);
  },
};
