import type { FastifyRequest } from 'fastify';
import { hostNameOf } from '../host-names.js';

/** How many recent log-ins are remembered: enough to explain a page's 401, bounded whatever callers do. */
const REMEMBERED = 64;

export interface CookieHostMismatch {
  readonly sessionHost: string;
  readonly pageHost: string;
}

/**
 * The host names sessions were created on, so that a cookie-less request from a page under
 * another name (a session made via 127.0.0.1, a page on localhost) can be told why its cookie
 * did not come: a browser sends a cookie only to the host name that set it.
 */
export interface SessionHosts {
  /** Remembers the host name (of the Host header) a session was created on. */
  created(sessionId: string, request: FastifyRequest): void;
  /**
   * For a request from a page of an allowed origin: the newest live session created on a host
   * name other than the page's, or undefined.
   */
  mismatch(request: FastifyRequest, live: (sessionId: string) => boolean): CookieHostMismatch | undefined;
}

export function createSessionHosts(originAllowed: (origin: string) => boolean): SessionHosts {
  const hosts = new Map<string, string>();
  return {
    created(sessionId, request) {
      const host = request.headers.host === undefined ? undefined : hostNameOf(request.headers.host);
      if (host === undefined) return;
      hosts.set(sessionId, host);
      if (hosts.size > REMEMBERED) hosts.delete(hosts.keys().next().value as string);
    },
    mismatch(request, live) {
      const origin = request.headers.origin;
      if (origin === undefined || hosts.size === 0) return undefined;
      const own = request.headers.host !== undefined && origin === `${request.protocol}://${request.headers.host}`;
      if (!own && !originAllowed(origin)) return undefined;
      let pageHost: string | undefined;
      try {
        pageHost = hostNameOf(new URL(origin).host);
      } catch {
        return undefined;
      }
      if (pageHost === undefined) return undefined;
      for (const [sessionId, sessionHost] of [...hosts].reverse()) {
        if (!live(sessionId)) {
          hosts.delete(sessionId);
          continue;
        }
        if (sessionHost !== pageHost) return { sessionHost, pageHost };
      }
      return undefined;
    },
  };
}
