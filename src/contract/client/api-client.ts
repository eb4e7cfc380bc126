// Sends one operation of the document as one actor with one way of authenticating, and
// records the exchange. Cookies live in a tough-cookie jar per actor. What a request carries of
// its credentials (sent-credentials.ts), what an answer issued (issued-credentials.ts) and a
// server gone silent (silent-server.ts) each have a file of their own.
import { CookieJar } from 'tough-cookie';
import { cookieName, keepCookies } from './kept-cookies.js';
import type { Spec } from '../../spec/index.js';
import type { Random } from '../random.js';
import { assertAllowed, type SafetyPolicy } from '../safety.js';
import type { Secrets } from '../../shared/redaction/secret-values.js';
import type { Actor, AuthMode, Exchange } from '../types.js';
import type { Call, Credentials } from './call.js';
import { rememberIssued, setCookieLines } from './issued-credentials.js';
import { createRetention } from './retention.js';
import { addCredentials } from './sent-credentials.js';
import { silentServer } from './silent-server.js';
import type { Transport } from './transport.js';
import { urlFor } from './transport.js';

export type { Call, Credentials } from './call.js';

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
  /** A user who holds some of the permissions the document names, not all (--operator-login). */
  readonly operator?: Credentials;
  readonly adminToken?: string;
  /** Keep every exchange in `exchanges` (default true); a long paging run keeps none, so its memory stays flat. */
  readonly keepExchanges?: boolean;
  /** Keep a digest of each answer kept only in part: the run is compared with another (--compare-with). */
  readonly digests?: boolean;
}

interface ActorState {
  readonly credentials?: Credentials;
  readonly jar: CookieJar;
  token?: string;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { spec, transport, policy, secrets, random } = options;
  const actors = new Map<Actor, ActorState>([
    ['admin', { credentials: options.admin, jar: new CookieJar(), token: options.adminToken }],
    ['anonymous', { jar: new CookieJar() }],
  ]);
  if (options.low) actors.set('low', { credentials: options.low, jar: new CookieJar() });
  if (options.operator) actors.set('operator', { credentials: options.operator, jar: new CookieJar() });
  for (const c of [options.admin, options.low, options.operator]) secrets.addCredentials(c);
  secrets.add(options.adminToken);
  const exchanges: Exchange[] = [];
  const retain = createRetention(options.digests === true);
  const runJar = new CookieJar();
  // The cookies of the API itself: the document's cookie scheme, and the CSRF cookie (field notes).
  const ownCookies = new Set(['csrf', ...Object.values(spec.document.components?.securitySchemes ?? {}).flatMap((scheme) => ('in' in scheme && scheme.in === 'cookie' ? [scheme.name] : []))]);
  let runSession = false;
  const silence = silentServer(transport.baseUrl.origin);
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
    silence.assertAnswering();
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

    addCredentials({ headers, query, cookies }, auth, me.credentials ?? options.admin, me.token, actor, random);
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
    silence.observe(result, op.operationId);
    const exchange: Exchange = {
      key: call.key,
      operationId: op.operationId,
      actor,
      auth,
      request: result.request,
      ...(result.response ? { response: result.response } : {}),
      ...(result.error ? { error: result.error } : {}),
      ...(result.timedOutAfterMs === undefined ? {} : { timedOutAfterMs: result.timedOutAfterMs }),
    };
    // Only an answer to a request that used the jar has its cookies kept (and sent back later); the
    // API's own (a session id, a CSRF token) are credentials whichever answer sets them.
    const lines = setCookieLines(exchange);
    const credentials = usesJar ? await keepCookies(cookieJar, url, lines, ownCookies) : lines.filter((line) => ownCookies.has(cookieName(line)));
    rememberIssued(secrets, op, exchange, credentials);
    if (options.keepExchanges !== false) exchanges.push(retain(exchange, result.values ?? 0));
    return exchange;
  }

  return client;
}
