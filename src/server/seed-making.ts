import type { FastifyInstance } from 'fastify';
import type { EventLogStore } from '../store/event-log.js';
import { afterFirstAnswer } from './after-first-answer.js';

/** Why the records were not made: the fake closed first. */
export class ClosedWhileMakingError extends Error {
  override readonly name = 'ClosedWhileMakingError';
}

/** How long after listening the making starts when no request came meanwhile. */
const START_AFTER_MS = 500;

/**
 * The event log's seed (a million generated records take seconds) is made once the server
 * listens, in turns of the event loop, so that requests go on being answered meanwhile; those
 * that need the records wait for them (see afterEventLog). It starts once the first answer is
 * sent, or half a second after listening: turns running while the first request is served would
 * make the start-up's first answer later (by about 0.6 s at a million records on a busy machine).
 * A request that needs the records starts the making itself, at once; so does a fake that never
 * listens (app.inject), on first use. Closing stops the making, so that no turn keeps the process
 * alive and the requests still waiting are answered.
 */
export function makeSeedOnceListening(app: FastifyInstance, events: EventLogStore): void {
  let closing = false;
  let cancel: (() => void) | undefined;
  const start = () => {
    events.makeInBackground()?.catch((error: unknown) => {
      if (!closing) app.log.error({ err: error }, "the event log's records could not be made");
    });
  };
  app.addHook('onListen', (done) => {
    if (cancel === undefined && !closing) cancel = afterFirstAnswer(app, START_AFTER_MS, start);
    done();
  });
  app.addHook('preClose', (done) => {
    closing = true;
    cancel?.();
    events.stopMaking(new ClosedWhileMakingError('closed while the records were made'));
    done();
  });
}
