import type { onRequestHookHandler } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import { checksHook, type RequestCheck } from './request-hooks.js';

/**
 * The Host checks that go before every other hook, so before the CORS plugin's.
 *
 * HTTP/1.1 requires a Host header. Node would refuse a request without one itself, with an
 * empty 400 outside the document; the fake refuses it here with the document's Error body.
 * (HTTP/1.0 has no Host requirement.)
 *
 * The CORS plugin answers every OPTIONS request (a preflight) in its own hook, before the route
 * the router matched runs any check; so `preflightHost` (the API's Host check) runs here for
 * OPTIONS, the plugin's own condition, whatever the path and however it is spelled. A
 * DNS-rebinding page then learns nothing from a preflight either. One hook for both: this one
 * runs for every request, and a second would cost every request a call.
 */
export function createHostHook(errors: ErrorFactory, messages: ErrorMessage, preflightHost: RequestCheck): onRequestHookHandler {
  const preflight = checksHook([preflightHost]);
  const hostMissing = messages('MALFORMED_REQUEST', 'hostMissing');
  return function hostChecks(request, reply, done) {
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      done(errors('MALFORMED_REQUEST', hostMissing));
      return;
    }
    if (request.method === 'OPTIONS') return preflight.call(this, request, reply, done);
    done();
  };
}
