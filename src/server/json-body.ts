import type { FastifyInstance } from 'fastify';

/**
 * JSON is the only body the API takes (anything else is 415). Fastify's own JSON parser
 * (which refuses `__proto__` and `constructor` poisoning) does the parsing; an empty body
 * is taken as no body, so clients that always send `Content-Type: application/json` work
 * with bodiless calls, and a body sent to an unknown path is not parsed (the answer is 404).
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.is404 || body === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
