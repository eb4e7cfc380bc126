import { parse, serialize, type Cookies, type SerializeOptions } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's cookies, from its Cookie header (parsed when first read). */
    readonly cookies: Cookies;
  }
}

const NONE: Cookies = Object.freeze({});
const parsed = new WeakMap<FastifyRequest, Cookies>();

/**
 * `request.cookies`, parsed by the `cookie` library when first read. A hook that parsed every
 * request's header (@fastify/cookie's) cost each call a hook and two objects, while only calls
 * whose operation accepts the session cookie look at it, and most carry none.
 */
export function installCookies(app: FastifyInstance): void {
  app.decorateRequest('cookies', {
    getter(this: FastifyRequest): Cookies {
      const header = this.headers.cookie;
      if (header === undefined) return NONE;
      let cookies = parsed.get(this);
      if (cookies === undefined) parsed.set(this, (cookies = parse(header)));
      return cookies;
    },
  });
}

/**
 * The cookie `name` of a request: its value, or, when the Cookie header gives it several
 * different values, all of them (as a repeated query parameter is an array). `request.cookies`
 * keeps the first only, which would ignore another value the client sent: a browser sends
 * two when two cookies of that name apply (cookies are shared by every port of a host name, so
 * another app on localhost may have set one). The same value twice is one value.
 */
export function cookieOf(request: FastifyRequest, name: string): string | string[] | undefined {
  const first = request.cookies[name];
  if (first === undefined) return undefined;
  const header = request.headers.cookie!;
  // Mostly the name is in the header once: no other value to look for.
  if (header.indexOf(name) === header.lastIndexOf(name)) return first;
  const values = new Set<string>();
  for (const pair of header.split(';')) {
    const value = parse(pair)[name];
    if (value !== undefined) values.add(value);
  }
  return values.size > 1 ? [...values] : first;
}

/** One cookie of an answer: set, or cleared (`value` undefined: expired at once, as browsers are told to forget it). */
export interface AnswerCookie {
  readonly name: string;
  readonly value?: string;
  readonly options: SerializeOptions;
}

/** Adds the answer's Set-Cookie headers. */
export function setCookies(reply: FastifyReply, cookies: readonly AnswerCookie[]): void {
  reply.header(
    'set-cookie',
    cookies.map(({ name, value, options }) => (value === undefined ? serialize(name, '', { ...options, expires: new Date(0), maxAge: 0 }) : serialize(name, value, options))),
  );
}
