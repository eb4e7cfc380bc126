import { BlockList, isIP, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { ControlMessage, ErrorMessage } from './error-answers.js';
import type { ResolvedFakeOptions } from './options.js';

/** Every path of the control API starts with this. */
export const CONTROL_PREFIX = '/__control';
/** Where the fake serves its request inspector. */
export const INSPECTOR_PATH = '/__inspector';

// Who may reach the fake, by Host and Origin (and, for the control API, by address), applied to
// every request by one hook before any route's own check. A DNS-rebinding page still sends its
// own name as Host, so naming the host keeps it from the seeded passwords and from steering the fake.

/** Paths (as the router reads them) that get the control rule; every other path gets the API's rule. */
const CONTROL_PATHS = [CONTROL_PREFIX, INSPECTOR_PATH];

/** Loopback addresses, which both rules answer with any port (a forwarded port changes the port, never the name). */
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The pages allowed by default: any port of a loopback host, over http (as `--help` and the README say). */
const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
export const LOCAL_ORIGINS: readonly string[] = LOCAL_HOSTS.map((host) => `http://${host}:*`);
const LOCAL_ORIGIN = new RegExp(`^http://(?:${LOCAL_HOSTS.map((host) => host.replace(/[.[\]]/g, '\\$&')).join('|')})(?::\\d{1,5})?$`);

/** CORS for a frontend on another port: credentialed (SameSite=Lax cookies travel between ports of one host). */
const CORS_ANSWER = { 'access-control-allow-credentials': 'true', 'access-control-expose-headers': 'Retry-After, Allow' };
const CORS_PREFLIGHT = {
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers': 'Content-Type, Authorization, x-csrf-token, Prefer',
  'access-control-max-age': '600',
  // Some browsers wait for a body of a 204 without it.
  'content-length': '0',
};

/** The most of a refused Host header a message repeats. */
const SHOWN_HOST_CHARS = 200;
/** How many recent log-ins remember their host name: enough to explain a page's 401, bounded whatever callers do. */
const REMEMBERED_SESSIONS = 64;

/** Whether an address (as a socket reports it; BlockList takes an IPv4-mapped IPv6 one for its IPv4 address) or a host name is a loopback address. */
function isLoopback(address: string | undefined): boolean {
  const version = address ? isIP(address) : 0;
  return version !== 0 && loopback.check(address!, version === 6 ? 'ipv6' : 'ipv4');
}

/** `name`, `name:port`, `[v6]` or `[v6]:port`: the host and the port, not yet checked. */
const HOST_HEADER = /^(?:\[([^\]]*)\]|([^:[\]]*))(?::(\d{1,5}))?$/;
/** Dot-separated labels of letters, digits, `-` and `_` (container names have it); a trailing dot makes another name. */
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/;

/**
 * The host name of a Host header, in lower case and without brackets, or undefined when it is no
 * host (a name, an IPv4 or bracketed IPv6 address, and a port): no spelling of a name passes for another.
 */
function hostNameOf(header: string): string | undefined {
  const match = HOST_HEADER.exec(header);
  if (!match || (match[3] !== undefined && Number(match[3]) > 65535)) return undefined;
  const [, bracketed, plain] = match;
  if (bracketed !== undefined) return isIPv6(bracketed) && !bracketed.includes('%') ? bracketed.toLowerCase() : undefined;
  const name = plain!.toLowerCase();
  return name.length <= 253 && (isIP(name) === 4 || NAME.test(name)) ? name : undefined;
}

/** A host as an option gives it: a Host header's host, or a bare IPv6 address (`--host ::1`). */
const optionHostName = (value: string): string | undefined => hostNameOf(isIPv6(value) ? `[${value}]` : value);

/** Whether an `--allowed-host` entry is one: `*`, or a host name or address with an optional leading dot (no port). */
export function isHostPattern(entry: string): boolean {
  if (entry === '*') return true;
  const name = entry.startsWith('.') ? entry.slice(1) : entry;
  return optionHostName(name) === name.replace(/^\[|\]$/g, '').toLowerCase();
}

export type HostOriginGuard = ReturnType<typeof addHostOriginGuard>;

/**
 * The host names sessions were created on, so that a cookie-less request from a page under
 * another name (a session made via 127.0.0.1, a page on localhost) can be told why its cookie
 * did not come: a browser sends a cookie only to the host name that set it.
 */
export type SessionHosts = HostOriginGuard['sessionHosts'];

/**
 * Adds the guard's hook (before any route's check, so a refused request changes and counts
 * nothing). Each request in turn:
 *
 * 1. HTTP/1.1 without Host: 400 MALFORMED_REQUEST, and the connection is closed.
 * 2. The rule of its path, else 403 PERMISSION_DENIED: the API's (the Host names a host it
 *    answers) or the control rule (a loopback client, the Host names this server, and from a
 *    browser a page of an allowed origin or the fake's own).
 * 3. CORS: an allowed origin is reflected with credentials; a preflight is answered 204 here;
 *    any other OPTIONS goes on to the router (405). Not @fastify/cors: it answers an OPTIONS
 *    without Access-Control-Request-Method with a text/plain 400 outside the document.
 */
export function addHostOriginGuard(app: FastifyInstance, settings: ResolvedFakeOptions, errors: ErrorFactory, messages: ErrorMessage, controlMessages: ControlMessage) {
  const optionNames = (hosts: readonly string[]) => hosts.map((host) => optionHostName(host) ?? host.toLowerCase());
  const bad = settings.allowedHosts.find((entry) => !isHostPattern(entry));
  if (bad !== undefined) throw new Error(`Allowed host "${bad}" is not a host name or address, .name (the name and its subdomains) or *.`);
  // Both rules answer `localhost`, loopback addresses and the `controlHosts` (the listening host
  // added); the API's rule also any IP address (a rebinding page presents its own name, never an
  // address), `*.localhost` and the `allowedHosts`: a name, `.name` with its subdomains, `*` any Host.
  const controlNames = new Set(optionNames(settings.controlHosts));
  const apiNames = new Set([...controlNames, ...optionNames(settings.allowedHosts.filter((entry) => entry !== '*' && !entry.startsWith('.')))]);
  const apiSuffixes = ['.localhost', ...settings.allowedHosts.filter((entry) => entry.startsWith('.')).map((entry) => entry.toLowerCase())];
  const anyHost = settings.allowedHosts.includes('*');
  const local = (name: string) => name === 'localhost' || isLoopback(name);
  const controlAnswers = (name: string | undefined) => name !== undefined && (local(name) || controlNames.has(name));
  const apiAnswers = (name: string | undefined) =>
    anyHost || (name !== undefined && (local(name) || apiNames.has(name) || isIP(name) !== 0 || apiSuffixes.some((suffix) => name === suffix.slice(1) || name.endsWith(suffix))));
  const listed = settings.corsOrigins === undefined ? undefined : new Set(settings.corsOrigins.map((origin) => origin.replace(/\/+$/, '')));
  const originAllowed = (origin: string) => (listed === undefined ? LOCAL_ORIGIN.test(origin) : listed.has(origin));
  /** No Origin (not a browser, or a same-origin GET), the fake's own pages (their Host already judged), or an allowed origin. */
  const pageAllowed = (request: FastifyRequest) => {
    const { origin, host } = request.headers;
    return origin === undefined || (host !== undefined && origin === `${request.protocol}://${host}`) || originAllowed(origin);
  };
  const controlRefusal = (request: FastifyRequest) => {
    if (!settings.controlFromAnyAddress && !isLoopback(request.socket.remoteAddress)) return 'notLoopback';
    const host = request.headers.host;
    if (host !== undefined && !controlAnswers(hostNameOf(host))) return 'hostNotThisServer';
    return pageAllowed(request) ? undefined : 'originNotAllowed';
  };

  /** HTTP/1.1 without Host is refused as Node would, in the document's shape; a request without Host (HTTP/1.0) passes: browsers always send one. */
  const hostMissing = (request: FastifyRequest, reply: FastifyReply): Error | undefined => {
    if (request.headers.host !== undefined || request.raw.httpVersion === '1.0') return undefined;
    void reply.header('connection', 'close');
    return errors('MALFORMED_REQUEST', messages('MALFORMED_REQUEST', 'hostMissing'));
  };
  /** The rule of the request's path (step 2), or its refusal. */
  const rule = (request: FastifyRequest): Error | undefined => {
    const path = routedPath(request.url);
    if (CONTROL_PATHS.some((prefix) => isUnder(path, prefix))) {
      const refusal = controlRefusal(request);
      return refusal === undefined ? undefined : errors('PERMISSION_DENIED', controlMessages('PERMISSION_DENIED', refusal));
    }
    const host = request.headers.host;
    if (host === undefined) return undefined;
    const name = hostNameOf(host);
    if (apiAnswers(name)) return undefined;
    const shown = JSON.stringify(host.slice(0, SHOWN_HOST_CHARS));
    return errors('PERMISSION_DENIED', name === undefined ? messages('PERMISSION_DENIED', 'hostInvalid', { host: shown }) : messages('PERMISSION_DENIED', 'hostNotAllowed', { host: shown, name }));
  };

  app.addHook('onRequest', function hostOriginGuard(request, reply, done) {
    const refusal = hostMissing(request, reply) ?? rule(request);
    if (refusal !== undefined) return done(refusal);
    void reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !originAllowed(origin)) return done();
    void reply.header('access-control-allow-origin', origin).headers(CORS_ANSWER);
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return done();
    // The preflight is answered here: the page did not make that call, its browser did.
    void reply.code(204).headers(CORS_PREFLIGHT).send();
  });
  // OPTIONS on every path is routed (a path no route takes would be kept in the journal); one that is no preflight gets the not-found handler's 405.
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());

  const hosts = new Map<string, string>();
  return {
    /** Adds the host the server was told to listen on to both rules (an address of every interface names no host). */
    listenOn(host: string): void {
      const name = ['0.0.0.0', '::', '[::]', ''].includes(host) ? undefined : optionHostName(host);
      if (name !== undefined) for (const names of [controlNames, apiNames]) names.add(name);
    },
    /** Whether the control rule lets the request in: who may steer the fake (a `Prefer` header) and see the seeded passwords. */
    steers: (request: FastifyRequest): boolean => controlRefusal(request) === undefined,
    sessionHosts: {
      created(sessionId: string, request: FastifyRequest): void {
        const host = request.headers.host === undefined ? undefined : hostNameOf(request.headers.host);
        if (host === undefined) return;
        hosts.set(sessionId, host);
        if (hosts.size > REMEMBERED_SESSIONS) hosts.delete(hosts.keys().next().value!);
      },
      /** For a request from a page that may call: the newest live session created on a host name other than the page's. */
      mismatch(request: FastifyRequest, live: (sessionId: string) => boolean): { sessionHost: string; pageHost: string } | undefined {
        const origin = request.headers.origin;
        if (origin === undefined || hosts.size === 0 || !pageAllowed(request)) return undefined;
        const authority = /^[a-z][a-z0-9+.-]*:\/\/(.*)$/i.exec(origin)?.[1];
        const pageHost = authority === undefined ? undefined : hostNameOf(authority);
        if (pageHost === undefined) return undefined;
        for (const [sessionId, sessionHost] of [...hosts].reverse()) {
          if (!live(sessionId)) hosts.delete(sessionId);
          else if (sessionHost !== pageHost) return { sessionHost, pageHost };
        }
        return undefined;
      },
    },
  };
}

/** Whether a path is `prefix` or under it. */
export const isUnder = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/** An absolute-form target of a scheme the router takes for its path alone (`http://` or `https://`), up to its path or query. */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The path of a request URL decoded as the router decodes it (`/%5F_control` is `/__control`,
 * `%2F` stays): code that reasons about paths uses it, so a spelling the router takes cannot dodge it.
 */
export function routedPath(target: string): string {
  // An absolute-form target is routed by its path alone (`http://host?x` is `/?x`).
  const absolute = target.charCodeAt(0) === 47 /* '/' */ ? null : ABSOLUTE_FORM.exec(target);
  const rest = absolute ? target.slice(absolute[0].length) : target;
  const url = absolute && rest.charCodeAt(0) !== 47 ? `/${rest}` : rest;
  // The router ends the path at `?` or `#`.
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
