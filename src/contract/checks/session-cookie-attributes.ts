import { Cookie } from 'tough-cookie';
import type { Operation } from '../../spec/index.js';
import { citeResponse } from '../citations.js';
import { setCookieLines } from '../client/issued-credentials.js';
import type { Failure } from '../types.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

/** An attribute a documented cookie line states, and how a parsed cookie shows it. */
interface Stated {
  readonly text: string;
  holds(cookie: Cookie): boolean;
}

function attribute(text: string): Stated | undefined {
  const [name = '', value = ''] = text.split('=').map((s) => s.trim());
  switch (name.toLowerCase()) {
    case 'path':
      return { text, holds: (c) => c.path === value };
    case 'httponly':
      return { text, holds: (c) => c.httpOnly };
    case 'secure':
      return { text, holds: (c) => c.secure };
    case 'samesite':
      return { text, holds: (c) => String(c.sameSite ?? '').toLowerCase() === value.toLowerCase() };
    default:
      return undefined;
  }
}

/**
 * The cookies the document states on an answer, read from its Set-Cookie header's description:
 * each `name=<value>; Attribute; Attribute=value` in backticks is one cookie line.
 */
export function statedCookies(op: Operation, status: number): Map<string, Stated[]> {
  const headers = (op.responses[String(status)] as { headers?: Record<string, { description?: string }> } | undefined)?.headers ?? {};
  const description = Object.entries(headers).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1].description ?? '';
  const stated = new Map<string, Stated[]>();
  for (const [, line = ''] of description.matchAll(/`([^`]+)`/g)) {
    const [first = '', ...rest] = line.split(';');
    const name = /^\s*([^=\s]+)=/.exec(first)?.[1];
    if (name) stated.set(name, rest.map((a) => attribute(a.trim())).filter((a): a is Stated => a !== undefined));
  }
  return stated;
}

/**
 * The session answer sets its cookies with the attributes the document states (Path, HttpOnly,
 * SameSite…): a cookie without HttpOnly is readable by every script of the page, one with another
 * Path is not sent back. A violation where the answer is the spec's, a note where it is a gap-fill.
 */
export const sessionCookieAttributes = defineCheck({
  name: 'session-cookie-attributes',
  title: 'The session cookies carry the attributes the document states',
  operations: ['createSession'],
  run(exchange, context) {
    const status = exchange.response?.status;
    if (status === undefined || status < 200 || status >= 300) return [];
    const op = context.spec.operation(exchange.operationId);
    const sent = new Map(setCookieLines(exchange).flatMap((line) => {
      const cookie = Cookie.parse(line);
      return cookie ? [[cookie.key, cookie] as const] : [];
    }));
    const failures: Failure[] = [];
    for (const [name, attributes] of statedCookies(op, status)) {
      const expected = `Set-Cookie: ${[`${name}=…`, ...attributes.map((a) => a.text)].join('; ')}`;
      const cookie = sent.get(name);
      const missing = cookie ? attributes.filter((a) => !a.holds(cookie)).map((a) => a.text) : [];
      if (cookie && missing.length === 0) continue;
      failures.push(
        failure(this, exchange, {
          message: cookie ? `the cookie "${name}" lacks ${missing.join(', ')}` : `the answer sets no cookie "${name}"`,
          expected,
          citation: citeResponse(op, status),
        }),
      );
    }
    return failures;
  },
});
