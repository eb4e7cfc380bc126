// `monitoring-api-kit/msw`: Mock Service Worker handlers that the fake answers, with all its
// rules (authentication, session cookies, permissions, queries, PATCH, faults, latency, the
// request journal), in-process without a port or forwarded to a running fake.
import * as msw from 'msw';
import { http, type HttpHandler } from 'msw';
import { answerByForwarding, answerInProcess, apiScope, type Answer, type InjectingFake } from './answers.js';
import { browserCookies, carriesCookies } from './browser-cookies.js';

export type { InjectingFake } from './answers.js';

// msw 3 in Node reads each request off the socket, so a handler never sees the app's
// `credentials` (they read 'same-origin'): cookies are then kept and sent as for 'include'.
// (`isPassthroughResponse` is exported from msw 3 on; a browser's service worker sees the real value.)
const credentialsUnseen = 'isPassthroughResponse' in msw && typeof process !== 'undefined' && process.versions?.node !== undefined;

export interface HandlerOptions {
  /** Where the app calls the API: its origin (and path, if any) before `/node/api`, e.g. `http://localhost:3000`. */
  readonly baseUrl: string;
}

export interface ForwardingOptions extends HandlerOptions {
  /** The origin of a running fake (`monitoring-api-kit serve`), e.g. `http://127.0.0.1:4010`. */
  readonly forwardTo: string;
}

/** The handlers, to spread into `setupServer(...)` or `setupWorker(...)`, and the cookies they keep for the app. */
export interface FakeHandlers extends Array<HttpHandler> {
  /** Forgets the cookies the answers set (a session log-in's), as a new browser profile would: call it beside `fake.reset()`. */
  clearCookies(): void;
}

/**
 * Handlers that answer every request under `baseUrl` + `/node/api` and `/__control` from the fake:
 * in-process through `fake.inject` (Node), or from a running fake at `forwardTo` (Node or a browser).
 * An unknown path gets the fake's own 404: nothing under those roots reaches the network unnoticed.
 */
export function handlersFor(fake: InjectingFake, options: HandlerOptions): FakeHandlers;
export function handlersFor(options: ForwardingOptions): FakeHandlers;
export function handlersFor(fakeOrOptions: InjectingFake | ForwardingOptions, options?: HandlerOptions): FakeHandlers {
  const forwarding = 'forwardTo' in fakeOrOptions;
  const answer: Answer = forwarding ? answerByForwarding(fakeOrOptions.forwardTo) : answerInProcess(fakeOrOptions);
  const baseUrl = forwarding ? fakeOrOptions.baseUrl : options?.baseUrl;
  if (typeof baseUrl !== 'string') throw new TypeError('handlersFor needs { baseUrl }: the origin the app calls the API on, e.g. "http://localhost:3000"');
  const scope = apiScope(baseUrl);
  const cookies = browserCookies();
  const handler = http.all(scope.pattern, async ({ request }) => {
    const credentials = credentialsUnseen ? 'include' : request.credentials;
    const sent = { url: request.url, credentials };
    const headers = new Headers(request.headers);
    const cookie = cookies.header(sent, headers.get('cookie'));
    if (cookie === undefined) headers.delete('cookie');
    else headers.set('cookie', cookie);
    const hasBody = request.body !== null && request.method !== 'GET' && request.method !== 'HEAD';
    let response: Response;
    try {
      response = await answer({
        method: request.method,
        path: scope.pathOf(request.url),
        headers,
        body: hasBody ? await request.arrayBuffer() : undefined,
        // A browser keeps the cookies of a forwarded call in its own store (it neither sends a
        // Cookie header a script set nor shows Set-Cookie), so a call that carries cookies on the
        // page's origin is forwarded with 'include'; Node's fetch ignores this and the jar serves.
        credentials: carriesCookies(sent) ? 'include' : 'omit',
        signal: request.signal,
      });
    } catch (error) {
      // The app aborted its fetch, which has already rejected: nothing is left to answer.
      if (request.signal.aborted) return Response.error();
      throw error;
    }
    cookies.keep(sent, response.headers.getSetCookie());
    return response;
  });
  return Object.assign([handler], { clearCookies: () => cookies.clear() });
}
