// What a case step's `capture` reads from the answer it got: a body field by JSON pointer (the
// whole body, `''`, as one token) or a header. A cookie is read from the actor's jar instead.
import { bodyToken } from '../client/body-token.js';
import type { ReceivedResponse } from '../types.js';

/** The value at a JSON pointer (`/a/0/b`), or undefined. */
function pointerGet(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return value;
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>((at, t) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), value);
}

/** The value a body or header capture takes from an answer; undefined when there is none. */
export function answerValue(from: { readonly body: string } | { readonly header: string }, response: ReceivedResponse | undefined): unknown {
  // The whole body (`''`) is one value: a JSON string or a bare text token; an object or list is none.
  if ('body' in from) return from.body === '' ? bodyToken(response) : pointerGet(response?.json, from.body);
  return response?.headers[from.header.toLowerCase()];
}
