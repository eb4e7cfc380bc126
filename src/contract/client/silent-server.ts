// A server that stopped answering: testing every operation against it would only add timeouts,
// so after SILENT_LIMIT requests in a row without an answer every later request of the run fails
// at once with the same StoppedError. A server that cannot be reached at all is a usage error.
import { StoppedError, UnreachableError } from '../errors.js';
import type { TransportResult } from './transport.js';

/** Requests in a row without an answer after which the server counts as gone. */
const SILENT_LIMIT = 5;

export interface SilentServer {
  /** Throws once the server counts as gone: no request is sent then. */
  assertAnswering(): void;
  /** Counts one request's result; throws when the server cannot be reached, or has now gone silent. */
  observe(result: TransportResult, operationId: string): void;
}

export function silentServer(origin: string): SilentServer {
  let silent = 0;
  let stopped: StoppedError | undefined;
  return {
    assertAnswering() {
      if (stopped) throw stopped;
    },
    observe(result, operationId) {
      if (result.unreachable) throw new UnreachableError(`cannot reach ${origin}: ${result.error ?? 'no answer'}`);
      silent = result.response ? 0 : silent + 1;
      if (silent < SILENT_LIMIT) return;
      stopped = new StoppedError(`stopped: ${silent} requests in a row got no answer from ${origin} (the last, ${operationId}: ${result.error ?? 'no answer'})`);
      throw stopped;
    },
  };
}
