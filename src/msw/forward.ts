import { bypass } from 'msw';
import type { Answer } from './answer.js';

/**
 * A running fake answers (`serve`, or `createFake().listen()`): each request is sent on to
 * `forwardTo` past MSW's handlers (`bypass`), so a browser's service worker serves the whole
 * fake. A connection the fake drops is a network error to the app too.
 */
export function answerByForwarding(forwardTo: string): Answer {
  const root = new URL(forwardTo).href.replace(/\/+$/, '');
  return async ({ method, path, headers, body, credentials, signal }) => {
    try {
      return await fetch(bypass(`${root}${path}`, { method, headers, ...(body === undefined ? {} : { body }), credentials, signal }));
    } catch {
      return Response.error();
    }
  };
}
