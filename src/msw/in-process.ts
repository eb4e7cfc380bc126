import type { Fake } from '../fake/create-fake.js';
import type { Answer } from './answer.js';

/** What the in-process handlers use of a fake: `inject`, Fastify's call without a port. */
export type InjectingFake = Pick<Fake, 'inject'>;

/** Statuses whose answers have no body (a Response refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The fake answers through `inject`, each request whole (nothing streams): the same routes,
 * checks, faults, latency and journal as over HTTP, from the loopback address and the Host
 * `localhost` the fake answers by default, so its guards against other hosts and addresses,
 * which keep web pages from a listening fake, let the tests' requests in.
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
