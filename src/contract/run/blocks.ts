// Waiting out a block (429) is bounded whatever the server says: at least a second a wait
// (Retry-After 0 or below is no reason to hammer it), a few retries per request, --max-wait in
// all, never past the run's deadline. The runner and `record` wait the same way.
import { BlockedError } from '../errors.js';
import type { Exchange } from '../types.js';
import type { Deadline } from './deadline.js';

export interface Wait {
  readonly maxWaitMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

export interface BlockWaitOptions {
  readonly wait: Wait;
  readonly deadline: Deadline;
  /** What is sent, e.g. the operationId, for the deadline's "stopped during" and the error. */
  readonly what: string;
  readonly baseUrl: string;
  /** Told before each wait, e.g. to show progress. */
  readonly onWait?: (ms: number, retryAfter: string | undefined) => void;
}

const MIN_WAIT_MS = 1000;
const RETRIES = 5;

/** Sends until the answer is not a 429, waiting each block out within the bounds above; then a BlockedError. */
export async function waitingOutBlocks(send: () => Promise<Exchange>, options: BlockWaitOptions): Promise<Exchange> {
  const { wait, deadline, what, baseUrl } = options;
  let exchange = await send();
  for (let waited = 0, retries = 0; exchange.response?.status === 429; retries++) {
    const header = exchange.response.headers['retry-after'];
    const retryAfter = Array.isArray(header) ? header[0] : header;
    const seconds = Number(retryAfter ?? 1);
    const after = Math.max(MIN_WAIT_MS, seconds * 1000);
    const tooLong = !Number.isFinite(seconds) || waited + after > wait.maxWaitMs;
    if (tooLong || retries >= RETRIES) {
      const why = tooLong ? 'more than --max-wait allows' : `still blocked after ${RETRIES} retries`;
      throw new BlockedError(`${baseUrl} blocked the run (429 on ${what}, Retry-After ${String(retryAfter ?? '?')} s, ${why}): relax its limits${tooLong ? ' or raise --max-wait' : ''}`);
    }
    options.onWait?.(after, retryAfter);
    deadline.doing(`the wait for a block on ${what} to end`);
    await deadline.sleep(after, wait.sleep);
    waited += after;
    deadline.doing(what);
    exchange = await send();
  }
  return exchange;
}
