import { bypass } from 'msw';
import type { Fake } from '../fake/create-fake.js';

// How the fake answers what the handlers pass on: in-process through `inject`, or forwarded to a running fake.

/** A request as the handlers pass it on to the fake: the path under the fake's root, headers as they will be sent. */
export interface FakeRequest {
  readonly method: string;
  /** Path and query, e.g. `/node/api/event-log?limit=5`. */
  readonly path: string;
  readonly headers: Headers;
  /** The whole body, read before it is passed on; undefined for a GET or HEAD, or a request without one. */
  readonly body: ArrayBuffer | undefined;
  readonly credentials: RequestCredentials;
  /** Aborted when the app aborts its fetch: a hanging answer then ends. */
  readonly signal: AbortSignal;
}

/** How the fake answers: a Response, or `Response.error()` where the fake dropped the connection (fetch then rejects, as over HTTP). */
export type Answer = (request: FakeRequest) => Promise<Response>;

/** Statuses whose answers have no body (a Response refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** A running fake answers: each request goes on to `forwardTo` past MSW's handlers (`bypass`), so a browser's service worker serves the whole fake; a dropped connection is a network error to the app too. */
export function answerByForwarding(forwardTo: string): Answer {
  const root = new URL(forwardTo).href.replace(/\/+$/, '');
  return async ({ method, path, headers, body, credentials, signal }) => {
    try {
      const response = await fetch(bypass(`${root}${path}`, { method, headers, ...(body === undefined ? {} : { body }), credentials, signal }));
      // Chromium gives a 204 an empty body stream, which a service worker's Response refuses.
      return NO_BODY.has(response.status) ? new Response(null, response) : response;
    } catch {
      return Response.error();
    }
  };
}

/** What the in-process handlers use of a fake: `inject`, Fastify's call without a port. */
export type InjectingFake = Pick<Fake, 'inject'>;

/**
 * The fake answers through `inject`, each request whole: the same routes, checks, faults, latency
 * and journal as over HTTP, from loopback and Host `localhost`, so the fake's guards let them in.
 */
export function answerInProcess(fake: InjectingFake): Answer {
  return async ({ method, path, headers, body, signal }) => {
    let reply;
    try {
      reply = await fake.inject({
        method: method as 'GET',
        url: path,
        headers: Object.fromEntries(headers),
        ...(body === undefined ? {} : { payload: Buffer.from(body) }),
        signal,
      });
    } catch (error) {
      // A fault that drops the connection: fetch rejects with a network error, as over HTTP.
      if ((error as { code?: unknown }).code === 'LIGHT_ECONNRESET') return Response.error();
      throw error;
    }
    const answer = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) answer.append(name, String(one));
    }
    const withBody = method !== 'HEAD' && !NO_BODY.has(reply.statusCode);
    return new Response(withBody ? new Uint8Array(reply.rawPayload) : null, { status: reply.statusCode, statusText: reply.statusMessage, headers: answer });
  };
}

/** The fake's two roots: the monitoring API and its control API. */
const ROOTS = ['/node/api', '/__control'];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The requests the handlers answer, those under `baseUrl` + `/node/api` or `/__control`, and how the
 * fake names each. `baseUrl` as the app calls the API: absolute (maybe with a path), or relative to the page.
 */
export function apiScope(baseUrl: string) {
  const page = typeof location === 'undefined' ? undefined : location.href;
  let base: URL;
  try {
    base = new URL(baseUrl, page);
  } catch {
    throw new TypeError(`baseUrl ${JSON.stringify(baseUrl)} is no URL: give the origin the app calls, e.g. "http://localhost:3000" (relative only where there is a page, in jsdom or a browser)`);
  }
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  return {
    /** Matches the URL (without query) of every request the fake answers. */
    pattern: new RegExp(`^${escape(prefix)}(?:${ROOTS.map(escape).join('|')})(?:/.*)?$`),
    /** The request's path and query as the fake sees them: `baseUrl`'s own path taken off. */
    pathOf(url: string): string {
      const { href } = new URL(url);
      return href.slice(prefix.length).replace(/#.*$/, '');
    },
  };
}
