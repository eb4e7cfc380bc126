import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';

/** Whether the request's operation takes a body at all (its route has a body schema). */
const takesBody = (request: FastifyRequest) => !request.is404 && request.routeOptions.schema?.body !== undefined;

/**
 * JSON is the only body the API takes. Fastify's own JSON parser (which refuses `__proto__`
 * and `constructor` poisoning) does the parsing. A body is read only for operations that
 * document one: elsewhere (unknown paths, DELETE, bodiless POST) it is drained and ignored,
 * so those answer what the document promises instead of a 400 or 415 it does not list.
 * An empty JSON body is no body, for clients that always send the Content-Type header.
 */
export function installBodyParsers(app: FastifyInstance, errors: ErrorFactory): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || !takesBody(request)) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
  app.addContentTypeParser('*', (request, payload, done) => {
    if (takesBody(request)) {
      const type = request.headers['content-type'];
      const message =
        type === undefined
          ? 'Content-Type must be application/json; the request has none.'
          : `Content-Type must be application/json, not ${JSON.stringify(String(type).slice(0, 100))}.`;
      done(errors('UNSUPPORTED_MEDIA_TYPE', message), undefined);
      return;
    }
    payload.resume();
    done(null, undefined);
  });
}
