import type { onRequestHookHandler } from 'fastify';
import type { ErrorFactory } from '../errors.js';

/**
 * HTTP/1.1 requires a Host header. Node would refuse a request without one itself, with an
 * empty 400 outside the document; the fake refuses it here with the document's Error body.
 * (HTTP/1.0 has no Host requirement.)
 */
export function createHostRequiredHook(errors: ErrorFactory): onRequestHookHandler {
  return function hostRequired(request, _reply, done) {
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      done(errors('MALFORMED_REQUEST', 'An HTTP/1.1 request must have a Host header.'));
      return;
    }
    done();
  };
}
