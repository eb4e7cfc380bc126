// Sends one operation of the document as one actor with one way of authenticating, and
// records the exchange. Cookies live in a tough-cookie jar per actor.
import { CookieJar } from 'tough-cookie';
import { cookieName, keepCookies, MAX_KEPT_COOKIES } from './kept-cookies.js';
import type { Operation, Spec } from '../../spec/index.js';
import { StoppedError, UnreachableError } from '../errors.js';
import type { Random } from '../random.js';
import { assertAllowed, type SafetyPolicy } from '../safety.js';
import type { Secrets } from '../secrets.js';
import type { Actor, AuthMode, Exchange } from '../types.js';
import { bodyToken } from './body-token.js';
import { markedSecrets } from './marked-secrets.js';
import { createRetention } from './retention.js';
import type { Transport } from './transport.js';
import { urlFor } from './transport.js';

export interface Credentials {
  readonly login: string;
  readonly password: string;
}

export interface Call {
  readonly operationId: string;
  /** Stable name of the step, the same for the same seed. */
  readonly key: string;
  readonly actor?: Actor;
  /**
   * How to authenticate. Left out: the administrator's run session when one is open and the
   * operation accepts a session cookie, else Basic (see openRunSession).
   */
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

export interface ApiClient {
  call(call: Call): Promise<Exchange>;
  hasActor(actor: Actor): boolean;
  credentials(actor: Actor): Credentials | undefined;
  setToken(actor: Actor, token: string | undefined): void;
  token(actor: Actor): string | undefined;
  /** The value of a cookie in an actor's jar, e.g. `sid` after a log-in. */
  cookie(actor: Actor, name: string): Promise<string | undefined>;
  /**
   * Logs the administrator in once for the bulk of the run, in a jar of its own (cases and
   * checks log in and out with the administrator's other jar). Real servers count every Basic
   * log-in against their limits; one session keeps the run well below them, as a real client would.
   */
  openRunSession(key: string): Promise<Exchange>;
  closeRunSession(key: string): Promise<Exchange | undefined>;
  /** All exchanges so far, in order; beyond a memory budget, only the head of each body (see retention.ts). */
  readonly exchanges: readonly Exchange[];
}

export interface ApiClientOptions {
  readonly spec: Spec;
  readonly transport: Transport;
  readonly policy: SafetyPolicy;
  readonly secrets: Secrets;
  readonly random: Random;
  readonly admin: Credentials;
  readonly low?: Credentials;
  readonly adminToken?: string;
  /** Keep every exchange in `exchanges` (default true); a long paging run keeps none, so its memory stays flat. */
  readonly keepExchanges?: boolean;
}

interface ActorState {
  readonly credentials?: Credentials;
  readonly jar: CookieJar;
  token?: string;
}

/** Requests in a row without an answer after which the server counts as gone: testing every operation against it would only add timeouts. */
const SILENT_LIMIT = 5;

const basic = (c: Credentials): string => `Basic ${Buffer.from(`${c.login}:${c.password}`).toString('base64')}`;

/** The answer's Set-Cookie lines. */
const setCookieLines = (exchange: Exchange): string[] => {
  const set = exchange.response?.headers['set-cookie'];
  return Array.isArray(set) ? set : set ? [set] : [];
};

/**
 * Masks from now on the credentials an answer issued: the values of the cookies given (those the
 * runner kept to send back, the API's own; at most MAX_KEPT_COOKIES of an answer: each is a
 * pattern every report text is matched against), the token or session id answered by
 * createAuthToken and createSession, and the values the document marks `x-secret` in the answer
 * (marked-secrets.ts). Other cookies and fields are no credential of the runner's: were they
 * masked, a server could have any word it sets as a cookie or a field cut out of every report.
 */
function remember(secrets: Secrets, operation: Operation, exchange: Exchange, cookies: readonly string[]): void {
  const r = exchange.response;
  if (!r) return;
  for (const c of cookies.slice(0, MAX_KEPT_COOKIES)) secrets.addIssued(/^[^=]+=([^;]*)/.exec(c)?.[1]);
  if (exchange.operationId === 'createAuthToken' || exchange.operationId === 'createSession') secrets.addIssued(bodyToken(r));
  for (const value of markedSecrets(operation, r.status, r.json)) secrets.addIssued(value);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { spec, transport, policy, secrets, random } = options;
  const actors = new Map<Actor, ActorState>([
    ['admin', { credentials: options.admin, jar: new CookieJar(), token: options.adminToken }],
    ['anonymous', { jar: new CookieJar() }],
  ]);
  if (options.low) actors.set('low', { credentials: options.low, jar: new CookieJar() });
  for (const c of [options.admin, options.low]) secrets.addCredentials(c);
  secrets.add(options.adminToken);
  const exchanges: Exchange[] = [];
  const retain = createRetention();
  const runJar = new CookieJar();
  // The cookies of the API itself: the document's cookie scheme, and the CSRF cookie (field notes).
  const ownCookies = new Set(['csrf', ...Object.values(spec.document.components?.securitySchemes ?? {}).flatMap((scheme) => ('in' in scheme && scheme.in === 'cookie' ? [scheme.name] : []))]);
  let runSession = false;
  let silent = 0;
  let stopped: StoppedError | undefined;
  const state = (actor: Actor): ActorState => {
    const s = actors.get(actor);
    if (!s) throw new Error(`No credentials for the ${actor} user.`);
    return s;
  };

  const client: ApiClient = {
    exchanges,
    async openRunSession(key) {
      const exchange = await send({ operationId: 'createSession', key, auth: 'none', body: options.admin }, runJar);
      runSession = (exchange.response?.status ?? 0) < 300 && (await runJar.getCookies(transport.baseUrl.href)).length > 0;
      return exchange;
    },
    async closeRunSession(key) {
      if (!runSession) return undefined;
      runSession = false;
      return send({ operationId: 'deleteSession', key, auth: 'session' }, runJar);
    },
    hasActor: (actor) => actors.has(actor),
    credentials: (actor) => actors.get(actor)?.credentials,
    setToken(actor, token) {
      state(actor).token = token;
      // The administrator's token given to the run is added as given (createApiClient); one read from a record, as issued.
      secrets.addIssued(token);
    },
    token: (actor) => actors.get(actor)?.token,
    async cookie(actor, name) {
      const cookies = await state(actor).jar.getCookies(transport.baseUrl.href);
      return cookies.find((c) => c.key === name)?.value;
    },
    call: (call) => send(call),
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

    if (auth === 'basic') headers.authorization = basic(me.credentials ?? options.admin);
    if (auth === 'wrong-basic') headers.authorization = basic({ login: `contract-check-${random.word(8)}`, password: random.word(12) });
    if (auth === 'token' || auth === 'auth-token') {
      if (!me.token) throw new Error(`No API token for the ${actor} user.`);
      query[auth === 'token' ? 'api-token' : 'auth-token'] = me.token;
    }
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
    let body: string | undefined;
    if (call.rawBody !== undefined) body = call.rawBody;
    else if (call.body !== undefined) body = JSON.stringify(call.body);
    if (body !== undefined && call.contentType !== null) headers['content-type'] = call.contentType ?? 'application/json';

    const result = await transport.send({ method, path, query, headers, body });
    if (result.unreachable) throw new UnreachableError(`cannot reach ${transport.baseUrl.origin}: ${result.error ?? 'no answer'}`);
    silent = result.response ? 0 : silent + 1;
    if (silent >= SILENT_LIMIT) {
      stopped = new StoppedError(`stopped: ${silent} requests in a row got no answer from ${transport.baseUrl.origin} (the last, ${op.operationId}: ${result.error ?? 'no answer'})`);
      throw stopped;
    }
    const exchange: Exchange = {
      key: call.key,
      operationId: op.operationId,
      actor,
      auth,
      request: result.request,
      ...(result.response ? { response: result.response } : {}),
      ...(result.error ? { error: result.error } : {}),
    };
    // Only an answer to a request that used the jar has its cookies kept (and sent back later); the
    // API's own (a session id, a CSRF token) are credentials whichever answer sets them.
    const lines = setCookieLines(exchange);
    const credentials = usesJar ? await keepCookies(cookieJar, url, lines, ownCookies) : lines.filter((line) => ownCookies.has(cookieName(line)));
    remember(secrets, op, exchange, credentials);
    if (options.keepExchanges !== false) exchanges.push(retain(exchange, result.values ?? 0));
    return exchange;
  }

  return client;
}
