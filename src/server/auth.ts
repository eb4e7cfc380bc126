import { parse } from 'cookie';
import type { FastifyRequest } from 'fastify';
import type { Document, Operation } from '../spec/index.js';
import type { SessionCredentials } from '../spec/types.js';
import type { Session, StoredUser } from '../store/accounts.js';
import type { UnauthenticatedMessage } from './error-answers.js';
import type { HandlerContext } from './handlers.js';
import type { RuntimeConfig } from './options.js';
import type { RequestCheck } from './routes.js';

// Who calls: the document's security schemes, the credentials a request presents, and the guard
// of each operation (401, then CSRF and permissions, 403).

/** Who made a request, and how they proved it. */
export interface Caller {
  readonly user: StoredUser;
  /** The first scheme, in the document's order, that authenticated the request. */
  readonly via: SchemeKind;
  /** The session, when a session cookie was among the credentials. */
  readonly session?: Session;
}

export type SchemeKind = 'basic' | 'session' | 'token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard of operations that need authentication; null elsewhere. */
    caller: Caller | null;
  }
}

/** A security scheme of the document, reduced to what the guard needs. */
export interface Scheme {
  readonly name: string;
  readonly kind: SchemeKind;
  /** The cookie (session) or query parameter (token) that carries the credential; the header for basic. */
  readonly key: string;
}

/** Reads the document's security schemes (Basic, a cookie session, a query token); any other is refused at start, not let through. */
export function readSchemes(document: Document): ReadonlyMap<string, Scheme> {
  const schemes = new Map<string, Scheme>();
  for (const [name, raw] of Object.entries(document.components?.securitySchemes ?? {})) {
    const s = raw as { type?: string; scheme?: string; in?: string; name?: string };
    let scheme: Scheme | undefined;
    if (s.type === 'http' && s.scheme?.toLowerCase() === 'basic') scheme = { name, kind: 'basic', key: 'authorization' };
    else if (s.type === 'apiKey' && s.in === 'cookie' && s.name) scheme = { name, kind: 'session', key: s.name };
    else if (s.type === 'apiKey' && s.in === 'query' && s.name) scheme = { name, kind: 'token', key: s.name };
    if (!scheme) throw new Error(`The fake does not support the security scheme "${name}" (${JSON.stringify(raw)}).`);
    schemes.set(name, scheme);
  }
  return schemes;
}

/** The name of the session cookie the document defines. */
export function sessionCookieName(schemes: ReadonlyMap<string, Scheme>): string {
  for (const scheme of schemes.values()) if (scheme.kind === 'session') return scheme.key;
  throw new Error('The document defines no session cookie scheme.');
}

/**
 * The cookie `name` of a request, or all its values when the header gives several different ones:
 * a browser sends two when another app on another port of the host set one too.
 */
export function cookieOf(request: FastifyRequest, name: string): string | string[] | undefined {
  const header = request.headers.cookie;
  if (header === undefined || !header.includes(name)) return undefined;
  const values = new Set<string>();
  for (const pair of header.split(';')) {
    const value = parse(pair)[name];
    if (value !== undefined) values.add(value);
  }
  return values.size > 1 ? [...values] : values.values().next().value;
}

const BASIC = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/** Headers parsed lately: a Basic client sends the same one on every request, read by the limiter and the guard. Bounded. */
const recent = new Map<string, Readonly<SessionCredentials> | undefined>();

/** The login and password of an `Authorization: Basic …` header, or undefined when it is malformed. */
export function parseBasic(header: string): Readonly<SessionCredentials> | undefined {
  if (recent.has(header)) return recent.get(header);
  const encoded = BASIC.exec(header)?.[1];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const credentials = colon < 0 ? undefined : Object.freeze({ login: decoded.slice(0, colon), password: decoded.slice(colon + 1) });
  if (recent.size >= 1_000) recent.clear();
  recent.set(header, credentials);
  return credentials;
}

/** What the guard reads; `config` on every request, so a change at run time applies to the next one. */
export type GuardDependencies = Pick<HandlerContext, 'state' | 'errors' | 'messages' | 'sessionHosts'> & {
  readonly config: Pick<RuntimeConfig, 'current'>;
  readonly schemes: ReadonlyMap<string, Scheme>;
};

/**
 * How each kind of scheme reads the credential a request carries (an array when its cookie or
 * parameter is repeated with different values), checks it, and names why it refused it (the
 * `x-messages` of UNAUTHENTICATED). A wrong credential (malformed, repeated, unknown, replaced,
 * revoked or expired) proves no user.
 */
const KINDS: Readonly<Record<SchemeKind, {
  presented(request: FastifyRequest, key: string): unknown;
  verify(credential: string, deps: GuardDependencies): Pick<Caller, 'user' | 'session'> | undefined;
  refused(credential: unknown): UnauthenticatedMessage;
}>> = {
  basic: {
    presented: (request) => request.headers.authorization,
    verify(credential, { state }) {
      const basic = parseBasic(credential);
      const user = basic && state.users.verify(basic.login, basic.password);
      return user ? { user } : undefined;
    },
    refused: (credential) => (typeof credential === 'string' && parseBasic(credential) ? 'basicWrong' : 'basicMalformed'),
  },
  session: {
    presented: cookieOf,
    verify(credential, { state }) {
      const session = state.sessions.touch(credential);
      const user = session && state.users.byId(session.userId);
      return user ? { user, session } : undefined;
    },
    refused: (credential) => (Array.isArray(credential) ? 'sessionRepeated' : 'sessionUnknown'),
  },
  token: {
    presented: (request, key) => (request.query as Record<string, unknown> | undefined)?.[key],
    verify(credential, { state, config, errors, messages }) {
      if (!config.current.authTokenEnabled) throw errors('TOKEN_AUTH_DISABLED', messages('TOKEN_AUTH_DISABLED', 'disabled'));
      const userId = state.tokens.userFor(credential);
      const user = userId === undefined ? undefined : state.users.byId(userId);
      return user ? { user } : undefined;
    },
    refused: () => 'tokenUnknown',
  },
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The onRequest check of an operation, from its `security` and `x-permissions`: authentication
 * (401), then CSRF and permissions (403), before the body is read, so an anonymous caller learns
 * nothing else. Only the schemes the operation accepts are looked at; every credential of those
 * present must be right and name the same user (the document's gap-fill), and together they must
 * satisfy one alternative of `security`.
 */
export function createGuard(operation: Operation, deps: GuardDependencies): RequestCheck | undefined {
  const alternatives = operation.security.map((requirement) =>
    Object.keys(requirement).map((name) => {
      const scheme = deps.schemes.get(name);
      if (!scheme) throw new Error(`${operation.operationId}: unknown security scheme "${name}".`);
      return scheme;
    }),
  );
  if (alternatives.length === 0) return undefined;
  const accepted = [...new Set(alternatives.flat())];
  // Each alternative as the bits of the accepted schemes it needs: a request's satisfied schemes
  // are a number, not a set made for each request.
  if (accepted.length > 30) throw new Error(`${operation.operationId}: more security schemes than the guard can hold.`);
  const needs = alternatives.map((alternative) => alternative.reduce((bits, scheme) => bits | (1 << accepted.indexOf(scheme)), 0));
  const { errors, messages } = deps;
  const refused = (name: UnauthenticatedMessage, values?: Record<string, string>) => errors('UNAUTHENTICATED', messages('UNAUTHENTICATED', name, values));

  /** No credential at all: maybe one the browser did not send because the page is on another host name. */
  const missing = (request: FastifyRequest) => {
    const mismatch = deps.sessionHosts.mismatch(request, (id) => deps.state.sessions.isLive(id));
    if (!mismatch) return refused('missing');
    const error = refused('cookieForOtherHost', { ...mismatch });
    request.log.warn({ sessionHost: mismatch.sessionHost, pageHost: mismatch.pageHost }, error.message);
    return error;
  };

  const authenticate = (request: FastifyRequest): Caller | null => {
    let caller: { -readonly [K in keyof Caller]: Caller[K] } | null = null;
    let first: Scheme | undefined;
    let satisfied = 0;
    for (let i = 0; i < accepted.length; i++) {
      const scheme = accepted[i] as Scheme;
      const kind = KINDS[scheme.kind];
      const credential = kind.presented(request, scheme.key);
      if (credential === undefined) continue;
      const verified = typeof credential === 'string' ? kind.verify(credential, deps) : undefined;
      if (!verified) throw refused(kind.refused(credential), { name: scheme.key });
      if (caller && caller.user !== verified.user) throw refused('differentUsers', { first: first?.name ?? '', second: scheme.name });
      first ??= scheme;
      caller ??= { user: verified.user, via: scheme.kind };
      if (verified.session) caller.session = verified.session;
      satisfied |= 1 << i;
    }
    if (!needs.some((bits) => (satisfied & bits) === bits)) {
      throw satisfied === 0 ? missing(request) : refused('missing');
    }
    return caller;
  };

  return function guard(request) {
    const caller = authenticate(request);
    request.caller = caller;
    if (!caller) {
      if (operation.permissions.length > 0) throw missing(request);
      return;
    }
    // Where CSRF is required, a write made with a session cookie must send the session's csrf value in `x-csrf-token`.
    if (caller.session && !SAFE_METHODS.has(request.method) && deps.config.current.requireCsrf && request.headers['x-csrf-token'] !== caller.session.csrf) {
      throw errors('CSRF_TOKEN_INVALID', messages('CSRF_TOKEN_INVALID', 'mismatch'));
    }
    // Every permission of the operation's `x-permissions`; the first one missing is named in the 403.
    const permission = operation.permissions.find((p) => !caller.user.permissions.includes(p));
    if (permission !== undefined) throw errors('PERMISSION_DENIED', messages('PERMISSION_DENIED', 'permissionMissing', { permission }), { permission });
  };
}
