// A plan sends the requests of one group of checks and names the checks each answer gets.
import type { Spec, User, Operation } from '../../spec/index.js';
import type { ApiClient, Call } from '../client/api-client.js';
import type { ClosedWorld } from '../model/closed-world.js';
import type { Random } from '../random.js';
import type { Evaluation, Recorder } from '../run/recorder.js';
import type { SafetyPolicy } from '../safety.js';
import type { Exchange } from '../types.js';

/** What the runner learned before the plans ran. */
export interface World {
  readonly admin?: User;
  readonly low?: User;
  readonly operator?: User;
  /** The first records of the event log (default order, explicit limit), for plans that need a record. */
  eventLogSample?: Exchange;
  /** The closed worlds of the list operations, by operationId, once a plan has made one (model/closed-world.ts). */
  readonly closedWorlds: Map<string, ClosedWorld>;
}

export interface PlanContext {
  readonly spec: Spec;
  readonly client: ApiClient;
  readonly policy: SafetyPolicy;
  /** This plan's own random stream. */
  readonly random: Random;
  readonly seed: number;
  readonly world: World;
  /** The explicit large `limit` of reference lists, and the most records a closed world holds. */
  readonly maxRecords: number;
  /** The time generated cases may take (model/property-run.ts shares it among the plans). */
  readonly budgetMs: number;
  /** Drawn cases by search label: replayed when given (`replayCounts`, a compared run), else recorded here. */
  readonly drawnCases: Map<string, number>;
  readonly replayCounts: boolean;
  /** Requests of the rate-limit probe, and how long to wait for a block to end before reading the log. */
  readonly probe: { readonly requests: number; readonly maxWaitMs: number; readonly sleep: (ms: number) => Promise<void> };
  send(call: Call, evaluation?: Evaluation): Promise<Exchange>;
  /** Runs named checks on an exchange already sent (its response checks ran when it was sent). */
  evaluate(exchange: Exchange, evaluation: Evaluation): void;
  readonly skip: Recorder['skip'];
  readonly inconclusive: Recorder['inconclusive'];
}

/** The requests of one group (run/groups.ts names the groups; run/run-contract.ts gives each its plan). */
export type Plan = (context: PlanContext) => Promise<void>;

/** The event log sample, read once (GET with an explicit large limit) and shared. */
export async function eventLogSample(ctx: PlanContext): Promise<Exchange> {
  ctx.world.eventLogSample ??= await ctx.send({ operationId: 'getEventLog', key: 'sample/event-log', query: { limit: String(ctx.maxRecords) } });
  return ctx.world.eventLogSample;
}

export type { Json as Row } from '../checks/check.js';
import { rows, type Json as Row } from '../checks/check.js';

/** Why a check that needs the low-privilege user's record did not run when the user was given. */
export const LOW_USER_UNREAD = "the low-privilege user's record (GET /node/api/users/current) could not be read";

export type HarmlessCall = Omit<Call, 'key' | 'actor' | 'auth'>;

/** A request that does no harm if a server wrongly accepts it: reads as they are, writes at ids that do not exist, a payload with the text it has. */
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

export const textOf = (record: Row): string | undefined => {
  const text = (record.payload as Row | undefined)?.text;
  return typeof text === 'string' ? text : undefined;
};

/** A trap of the sample and the payload update that gives it the text it has: accepted, it changes nothing, and it answers 204, not 404. */
export async function sameTextUpdate(ctx: PlanContext): Promise<{ path: Record<string, string>; body: { text: string }; record: Row } | undefined> {
  const trap = rows(await eventLogSample(ctx)).find((r) => r.type === 'snmp-trap');
  const text = trap && textOf(trap);
  return trap && text !== undefined ? { path: { id: String(trap._id) }, body: { text }, record: trap } : undefined;
}

/** PATCHes the original text back (the sequences judge whether texts persist). Runs in a `finally`. */
export async function restoreText(ctx: PlanContext, record: Row, key: string): Promise<void> {
  const text = textOf(record);
  if (text === undefined) return;
  await ctx.send({ operationId: 'updateEventLogPayload', key, path: { id: String(record._id) }, body: { text } });
}
