// Sends one operation of the document as one actor with one way of authenticating (Basic, a
// token in the query, the actor's cookie jar, or deliberately wrong ones) and records the
// exchange. A server that stops answering ends the run.
import type { Actor, AuthMode, Exchange, ReceivedResponse } from '../types.js';
import type { Random } from '../random.js';
import { CookieJar } from 'tough-cookie';
import { StoppedError, UnreachableError } from '../errors.js';
import { type Transport, urlFor } from './transport.js';
import { createHash } from 'node:crypto';
import { normalise } from '../differential.js';
import { textHead } from '../../shared/text-head.js';
import type { Spec } from '../../spec/index.js';
import { assertAllowed, type SafetyPolicy } from '../safety.js';
import type { Secrets } from '../../shared/redaction/secret-values.js';
import { rememberIssued, setCookieLines } from './credentials.js';

/** A user's login and password, as Basic sends them and the log-in body carries them. */
export interface Credentials {
  readonly login: string;
  readonly password: string;
}

export interface Call {
  readonly operationId: string;
  /** Stable name of the step, the same for the same seed. */
  readonly key: string;
  readonly actor?: Actor;
  /** Left out: the administrator's run session when one is open and the operation takes it, else Basic. */
  readonly auth?: AuthMode;
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Cookies sent as given, besides the actor's jar (e.g. a session id kept from before a log-out). */
  readonly cookies?: Readonly<Record<string, string>>;
  /** A JSON body; `rawBody` sends text as it is. */
  readonly body?: unknown;
  readonly rawBody?: string;
  /** Content-Type of a body; null sends none. Default application/json. */
  readonly contentType?: string | null;
}

const basic = (c: Credentials): string => `Basic ${Buffer.from(`${c.login}:${c.password}`).toString('base64')}`;

/** Most cookies an actor's jar holds: the API sets two, and a server that sets new ones on every answer would grow every request without end. */
export const MAX_KEPT_COOKIES = 20;
/** Requests in a row without an answer after which the server counts as gone. */
const SILENT_LIMIT = 5;
/** A run against the fake keeps about 3 MB and 120,000 values of answers; beyond, the head of each body (and a digest when compared). */
const RETENTION_LIMITS = { chars: 8 * 1024 * 1024, values: 200_000, partialChars: 2048 } as const;

/** The name of the cookie a Set-Cookie line sets. */
const cookieName = (setCookie: string): string => /^\s*([^=;]*)/.exec(setCookie)?.[1]?.trim() ?? '';

/** A digest of the normalised JSON body (ids, UUIDs and timestamps aside), as kept or computed now. */
export function bodyDigest(response: ReceivedResponse): string | undefined {
  if (response.digest) return response.digest;
  return response.json === undefined ? undefined : createHash('sha256').update(JSON.stringify(normalise(response.json))).digest('base64url');
}

export interface ApiClientOptions {
  readonly spec: Spec;
  readonly transport: Transport;
  readonly policy: SafetyPolicy;
  readonly secrets: Secrets;
  readonly random: Random;
  readonly admin: Credentials;
  readonly low?: Credentials;
  readonly operator?: Credentials;
  readonly adminToken?: string;
  /** Keep every exchange in `exchanges` (default true); a long paging run keeps none. */
  readonly keepExchanges?: boolean;
  /** Keep a digest of each answer kept only in part (--compare-with). */
  readonly digests?: boolean;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(options: ApiClientOptions) {
  const { spec, transport, policy, secrets, random } = options;
  const actors = new Map<Actor, { readonly credentials?: Credentials; readonly jar: CookieJar; token?: string }>([
    ['admin', { credentials: options.admin, jar: new CookieJar(), token: options.adminToken }],
    ['anonymous', { jar: new CookieJar() }],
  ]);
  if (options.low) actors.set('low', { credentials: options.low, jar: new CookieJar() });
  if (options.operator) actors.set('operator', { credentials: options.operator, jar: new CookieJar() });
  for (const c of [options.admin, options.low, options.operator]) secrets.addCredentials(c);
  secrets.add(options.adminToken);
  const exchanges: Exchange[] = [];
  const kept = { chars: 0, values: 0 };
  const runJar = new CookieJar();
  // The cookies of the API itself: the document's cookie scheme, and the CSRF cookie (field notes).
  const ownCookies = new Set(['csrf', ...Object.values(spec.document.components?.securitySchemes ?? {}).flatMap((scheme) => ('in' in scheme && scheme.in === 'cookie' ? [scheme.name] : []))]);
  let runSession = false;
  const origin = transport.baseUrl.origin;
  let silent = 0;
  let stopped: StoppedError | undefined;
  const state = (actor: Actor) => {
    const s = actors.get(actor);
    if (!s) throw new Error(`No credentials for the ${actor} user.`);
    return s;
  };

  const client = {
    /** All exchanges so far, in order; beyond a memory budget, only the head of each body (retain). */
    exchanges: exchanges as readonly Exchange[],
    /**
     * Logs the administrator in once for the bulk of the run, in a jar of its own: real servers
     * count every Basic log-in against their limits, and one session keeps the run well below them.
     */
    async openRunSession(key: string): Promise<Exchange> {
      const exchange = await send({ operationId: 'createSession', key, auth: 'none', body: options.admin }, runJar);
      runSession = (exchange.response?.status ?? 0) < 300 && (await runJar.getCookies(transport.baseUrl.href)).length > 0;
      return exchange;
    },
    async closeRunSession(key: string): Promise<Exchange | undefined> {
      if (!runSession) return undefined;
      runSession = false;
      return send({ operationId: 'deleteSession', key, auth: 'session' }, runJar);
    },
    hasActor: (actor: Actor): boolean => actors.has(actor),
    credentials: (actor: Actor): Credentials | undefined => actors.get(actor)?.credentials,
    setToken(actor: Actor, token: string | undefined): void {
      state(actor).token = token;
      // The administrator's token given to the run is added as given (createApiClient); one read from a record, as issued.
      secrets.addIssued(token);
    },
    token: (actor: Actor): string | undefined => actors.get(actor)?.token,
    /** The value of a cookie in an actor's jar, e.g. `sid` after a log-in. */
    async cookie(actor: Actor, name: string): Promise<string | undefined> {
      const cookies = await state(actor).jar.getCookies(transport.baseUrl.href);
      return cookies.find((c) => c.key === name)?.value;
    },
    call: (call: Call): Promise<Exchange> => send(call),
  };

  async function send(call: Call, jar?: CookieJar): Promise<Exchange> {
    if (stopped) throw stopped;
    const op = spec.operation(call.operationId);
    const method = op.method.toUpperCase();
    assertAllowed(policy, method, op.operationId);
    const actor = call.actor ?? 'admin';
    const takesSession = op.security.some((alternative) => 'sessionCookie' in alternative);
    const useRunSession = jar === undefined && call.auth === undefined && actor === 'admin' && runSession && takesSession;
    const auth: AuthMode = call.auth ?? (useRunSession ? 'session' : 'basic');
    const me = state(actor);
    const cookieJar = jar ?? (useRunSession ? runJar : me.jar);
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = call.path?.[name];
      if (value === undefined) throw new Error(`${op.operationId} needs the path parameter "${name}".`);
      return encodeURIComponent(value);
    });
    const query: Record<string, string> = { ...call.query };
    const headers: Record<string, string> = { ...call.headers };
    const cookies: string[] = Object.entries(call.cookies ?? {}).map(([k, v]) => `${k}=${v}`);
    const usesJar = auth === 'session' || op.operationId === 'createSession';
    const url = urlFor(transport.baseUrl, path).href;

    const own = me.credentials ?? options.admin;
    if (auth === 'basic') headers.authorization = basic(own);
    if (auth === 'wrong-basic') headers.authorization = basic({ login: `contract-check-${random.word(8)}`, password: random.word(12) });
    // A known login with a password that is not its own: a server that checks only the login accepts it.
    if (auth === 'wrong-password') headers.authorization = basic({ login: own.login, password: `${own.password}-${random.word(6)}` });
    if (auth === 'wrong-empty-password') headers.authorization = basic({ login: own.login, password: '' });
    if (auth === 'token' || auth === 'auth-token') {
      if (!me.token) throw new Error(`No API token for the ${actor} user.`);
      query[auth === 'token' ? 'api-token' : 'auth-token'] = me.token;
    }
    // A logged-out session id or a revoked token is a value the call itself carries (its cookies, its query).
    if (auth === 'wrong-token' || auth === 'wrong-auth-token') query[auth === 'wrong-token' ? 'api-token' : 'auth-token'] = random.uuid();
    if (auth === 'wrong-session') cookies.push(`sid=${random.uuid()}`);
    if (usesJar) {
      const jarCookies = await cookieJar.getCookieString(url);
      if (jarCookies) cookies.push(jarCookies);
      // Real clients send the csrf cookie back on writes (field notes); a server that does not ask for it ignores it.
      const csrf = (await cookieJar.getCookies(url)).find((c) => c.key === 'csrf')?.value;
      if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
    }
    if (cookies.length > 0) headers.cookie = cookies.join('; ');
    const body = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
    if (body !== undefined && call.contentType !== null) headers['content-type'] = call.contentType ?? 'application/json';

    const result = await transport.send({ method, path, query, headers, body });
    if (result.unreachable) throw new UnreachableError(`cannot reach ${origin}: ${result.error ?? 'no answer'}`);
    silent = result.response ? 0 : silent + 1;
    if (silent >= SILENT_LIMIT) throw (stopped = new StoppedError(`stopped: ${silent} requests in a row got no answer from ${origin} (the last, ${op.operationId}: ${result.error ?? 'no answer'})`));
    const { values = 0, unreachable: _reached, ...answered } = result;
    const exchange: Exchange = { key: call.key, operationId: op.operationId, actor, auth, ...answered };
    // Only an answer to a request that used the jar has its cookies kept (and sent back later); the
    // API's own (a session id, a CSRF token) are credentials whichever answer sets them.
    const lines = setCookieLines(exchange);
    const credentials = usesJar ? await keepCookies(cookieJar, url, lines) : lines.filter((line) => ownCookies.has(cookieName(line)));
    rememberIssued(secrets, op, exchange, credentials);
    if (options.keepExchanges !== false) exchanges.push(retain(exchange, values));
    return exchange;
  }

  /** Stores an answer's Set-Cookie lines in the jar (the API's own and those it holds always, others while it has room); returns those kept. */
  async function keepCookies(jar: CookieJar, url: string, lines: readonly string[]): Promise<string[]> {
    if (lines.length === 0) return [];
    const held = new Set((await jar.store.getAllCookies()).map((cookie) => cookie.key));
    let others = [...held].filter((name) => !ownCookies.has(name)).length;
    const keptLines: string[] = [];
    for (const line of lines) {
      const name = cookieName(line);
      if (!ownCookies.has(name) && !held.has(name)) {
        if (others >= MAX_KEPT_COOKIES - ownCookies.size) continue;
        others++;
      }
      await jar.setCookie(line, url, { ignoreError: true });
      held.add(name);
      keptLines.push(line);
    }
    return keptLines;
  }

  /** The exchange as the run keeps it: whole while the budget lasts, then the head of its body, and a digest when compared. */
  function retain(exchange: Exchange, parsedValues: number): Exchange {
    const response = exchange.response;
    if (!response) return exchange;
    const size = response.json === undefined ? 0 : parsedValues;
    if (kept.chars + response.body.length <= RETENTION_LIMITS.chars && kept.values + size <= RETENTION_LIMITS.values) {
      kept.chars += response.body.length;
      kept.values += size;
      return exchange;
    }
    const { json: _dropped, ...rest } = response;
    const digest = options.digests ? bodyDigest(response) : undefined;
    return { ...exchange, response: { ...rest, body: textHead(response.body, RETENTION_LIMITS.partialChars), partial: true, ...(digest ? { digest } : {}) } };
  }

  return client;
}
