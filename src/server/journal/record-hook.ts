import type { onSendHookHandler } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import type { RequestJournal } from '../../store/request-journal.js';
import { ofTheApi } from '../latency-hook.js';

/**
 * Keeps each answer of the monitoring API (its routes, and paths under `prefix` no route
 * takes) in the journal. Registered after the latency hook, so the duration includes the
 * added latency. It costs one record a request: fields that the request and reply already
 * hold, and the body text only of error answers (the document's Error body, read when asked).
 */
export function createJournalHook(journal: RequestJournal, clock: Clock, prefix: string): onSendHookHandler<unknown> {
  return function keepInJournal(request, reply, payload, done) {
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
        durationMs: reply.elapsedTime,
        errorText: status >= 400 && typeof payload === 'string' ? payload : undefined,
      });
    }
    done(null, payload);
  };
}
