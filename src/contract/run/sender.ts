// Sends and checks. Outside the probe a block (429) is not a finding: a short one is waited out
// (Retry-After), a long one stops the run, since every later answer would be the block too.
import type { ApiClient, Call } from '../client/api-client.js';
import type { PlanContext } from '../plans/plan.js';
import type { Exchange } from '../types.js';
import { waitingOutBlocks, type Wait } from './blocks.js';
import type { Deadline } from './deadline.js';
import type { Evaluation, Recorder } from './recorder.js';

export function sender(client: ApiClient, recorder: Recorder, wait: Wait, deadline: Deadline, probing: () => boolean, baseUrl: string): PlanContext['send'] {
  return async (call: Call, evaluation: Evaluation = {}): Promise<Exchange> => {
    deadline.doing(call.operationId);
    const send = (): Promise<Exchange> => client.call(call);
    const exchange = probing() ? await send() : await waitingOutBlocks(send, { wait, deadline, what: call.operationId, baseUrl });
    recorder.evaluate(exchange, evaluation);
    return exchange;
  };
}
