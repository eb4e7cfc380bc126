import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import type { RequestJournal } from '../../store/request-journal.js';
import { ofTheApi } from '../latency-hook.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request was routed (Fastify times replies only when it logs). */
    journalStart: number;
  }
}

/**
 * Keeps each answer of the monitoring API (its routes, and paths under `prefix` no route
 * takes) in the journal. Add it after the latency hook, so that the duration includes the
 * added latency. It costs one record a request: fields that the request and reply already
 * hold, and the body text only of error answers (the document's Error body, read when asked).
 */
export function addJournalHooks(app: FastifyInstance, journal: RequestJournal, clock: Clock, prefix: string): void {
  app.decorateRequest('journalStart', 0);
  app.addHook('onRequest', function startJournalClock(request, _reply, done) {
    request.journalStart = performance.now();
    done();
  });
  app.addHook('onSend', function keepInJournal(request, reply, payload, done) {
    if (ofTheApi(request, prefix)) {
      const { caller } = request;
      const status = reply.statusCode;
      journal.add({
        id: journal.nextId(),
        time: clock.now(),
        method: request.method,
        rawUrl: request.url,
        operationId: request.is404 ? undefined : request.routeOptions.config.operationId,
        authMethod: caller?.via,
        userId: caller?.user.id,
        login: caller?.user.login,
        origin: request.headers.origin,
        status,
        // 0 when an earlier onRequest hook answered before the clock was started.
        durationMs: request.journalStart > 0 ? performance.now() - request.journalStart : 0,
        errorText: status >= 400 && typeof payload === 'string' ? payload : undefined,
      });
    }
    done(null, payload);
  });
}
