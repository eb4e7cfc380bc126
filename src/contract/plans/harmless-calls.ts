// For each operation, a request that can do no harm if a server wrongly accepts it: reads as
// they are, writes aimed at ids that do not exist, a payload "update" with the text it has.
import type { Operation } from '../../spec/index.js';
import type { Call } from '../client/api-client.js';
import type { PlanContext } from './plan.js';

export type HarmlessCall = Omit<Call, 'key' | 'actor' | 'auth'>;

export function harmlessCall(ctx: PlanContext, op: Operation): HarmlessCall {
  const path: Record<string, string> = {};
  for (const p of op.parameters.filter((x) => x.in === 'path')) path[p.name] = ctx.random.objectId();
  const call: HarmlessCall = { operationId: op.operationId, path };
  if (op.operationId === 'getEventLog' || op.operationId === 'getLimitBlockLog') return { ...call, query: { limit: '1' } };
  if (op.operationId === 'updateEventLogPayload') return { ...call, body: { text: 'contract-check' } };
  return call;
}

export const isWrite = (op: Operation): boolean => !['get', 'head', 'options'].includes(op.method);
/** Session log-in and log-out may run against any server. */
export const isSessionCall = (op: Operation): boolean => op.operationId === 'createSession' || op.operationId === 'deleteSession';
