// Sends and checks. Outside the probe a block (429) is not a finding: a short one is waited out
// (Retry-After), a long one stops the run, since every later answer would be the block too.
// Waiting is bounded whatever the server says: at least a second a wait (Retry-After 0 or below
// is no reason to hammer it), a few retries per request, --max-wait in all, never past the deadline.
import type { ApiClient, Call } from '../client/api-client.js';
import { BlockedError } from '../errors.js';
import type { PlanContext } from '../plans/plan.js';
import type { Exchange } from '../types.js';
import type { Deadline } from './deadline.js';
import type { Evaluation, Recorder } from './recorder.js';

export interface Wait {
  readonly maxWaitMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

const MIN_WAIT_MS = 1000;
const RETRIES = 5;

export function sender(client: ApiClient, recorder: Recorder, wait: Wait, deadline: Deadline, probing: () => boolean, baseUrl: string): PlanContext['send'] {
  return async (call: Call, evaluation: Evaluation = {}): Promise<Exchange> => {
    deadline.doing(call.operationId);
    let exchange = await client.call(call);
    for (let waited = 0, retries = 0; exchange.response?.status === 429 && !probing(); retries++) {
      const header = exchange.response.headers['retry-after'];
      const seconds = Number(header ?? 1);
      const after = Math.max(MIN_WAIT_MS, seconds * 1000);
      const tooLong = !Number.isFinite(seconds) || waited + after > wait.maxWaitMs;
      if (tooLong || retries >= RETRIES) {
        const why = tooLong ? 'more than --max-wait allows' : `still blocked after ${RETRIES} retries`;
        throw new BlockedError(
          `${baseUrl} blocked the run (429 on ${call.operationId}, Retry-After ${String(header ?? '?')} s, ${why}): relax its limits${tooLong ? ' or raise --max-wait' : ''}`,
        );
      }
      deadline.doing(`the wait for a block on ${call.operationId} to end`);
      await deadline.sleep(after, wait.sleep);
      waited += after;
      deadline.doing(call.operationId);
      exchange = await client.call(call);
    }
    recorder.evaluate(exchange, evaluation);
    return exchange;
  };
}
