// Random sequences of writes and reads (fast-check's model-based testing: fc.commands and
// fc.asyncModelRun) judged by a model of tokens, sessions and payload texts
// (model/state/state-model.ts). Reads are confined to a window of the event log read whole first.
// A failing sequence is shrunk to the shortest that still fails and reported as numbered curl
// steps. Each run puts back the texts it changed and logs its sessions out; the run leaves no live
// token of its own. Only where writes are allowed.
import fc from 'fast-check';
import { commandArbitraries } from '../model/state/state-commands.js';
import { citations, stateChecks, type StateCheckName, emptyModel, ModelFailure, type Person, type StateModel, type StateReal, type Window } from '../model/state/state-model.js';
import type { Actor } from '../types.js';
import { otherUser } from './access-plans.js';
import { restoreText, eventLogSample, type Plan, type PlanContext, type Row } from './plan.js';
import { apply, rows, unreadable } from '../checks/check.js';

/** Sequences drawn of each kind, and the longest; a failure is shrunk in at most SHRINKS more. */
const RUNS = 4;
const MAX_COMMANDS = 12;
const SHRINKS = 200;

const OPERATIONS: Readonly<Record<StateCheckName, readonly string[]>> = {
  'token-state': ['createAuthToken', 'revokeAuthToken'],
  'session-state': ['createSession', 'deleteSession'],
  'payload-update-persists': ['updateEventLogPayload'],
  'mqtt-update-refused': ['updateEventLogPayload'],
};

function skipAll(ctx: PlanContext, reason: string, checks: readonly StateCheckName[] = stateChecks.map((c) => c.name)): void {
  for (const check of checks) for (const op of OPERATIONS[check]) ctx.skip(op, check, reason);
}

/** The oldest records, from the first to the last of the fewest that hold two traps and an MQTT record (at least six). */
async function readWindow(ctx: PlanContext): Promise<Window | string> {
  const sample = await eventLogSample(ctx);
  const why = unreadable(sample);
  if (why) return `the event log could not be read: ${why}`;
  const list = rows(sample);
  const enough = (k: number): boolean => k >= 6 && list.slice(0, k).filter((r) => r.type === 'snmp-trap').length >= 2 && list.slice(0, k).some((r) => r.type !== 'snmp-trap');
  let k = 1;
  while (k < Math.min(list.length, 30) && !enough(k)) k++;
  const first = list[0]?.timestamp;
  const last = list[k - 1]?.timestamp;
  if (typeof first !== 'number' || typeof last !== 'number') return 'the event log holds no record with a timestamp';
  const query = { from: String(first), to: String(last), limit: String(ctx.maxRecords) };
  const read = await ctx.send({ operationId: 'getEventLog', key: 'sequence/window', query });
  const whyNot = unreadable(read);
  if (whyNot) return `the window of the event log could not be read: ${whyNot}`;
  const records = rows(read).filter((r) => typeof r._id === 'string');
  return records.length >= ctx.maxRecords ? 'the window of the event log is not small enough to read whole' : { query, records };
}

const person = (ctx: PlanContext, actor: Exclude<Actor, 'anonymous'>): Person[] => {
  const user = ctx.world[actor];
  const credentials = ctx.client.credentials(actor);
  return user && credentials ? [{ actor, user, ...credentials }] : [];
};

/** Puts back what a run changed: the texts it wrote, the sessions it left open. */
async function restore(ctx: PlanContext, real: StateReal, model: StateModel): Promise<void> {
  for (const record of real.window.records) if (real.touched.has(String(record._id)) && record.type === 'snmp-trap') await restoreText(ctx, record, `sequence/restore/${String(record._id)}`);
  for (const s of model.sessions.filter((x) => x.state === 'live')) {
    await ctx.send({ operationId: 'deleteSession', key: 'sequence/restore/log-out', actor: 'anonymous', auth: 'none', cookies: { sid: s.sid }, headers: s.csrf ? { 'x-csrf-token': s.csrf } : {} });
  }
}

export const sequencesPlan: Plan = async (ctx) => {
  if (!ctx.policy.writes) return skipAll(ctx, `sequences of writes not run: ${ctx.policy.reason}`);
  const window = await readWindow(ctx);
  if (typeof window === 'string') {
    for (const check of ['payload-update-persists', 'mqtt-update-refused'] as const) ctx.inconclusive('updateEventLogPayload', check, window);
    return;
  }
  const other = otherUser(ctx);
  const subject = other ? person(ctx, other.actor)[0] : undefined;
  if (!subject) skipAll(ctx, 'no user besides the administrator to create tokens for (give --low-login)', ['token-state']);
  if (!window.records.some((r: Row) => r.type !== 'snmp-trap')) skipAll(ctx, 'no MQTT record in the window of the event log', ['mqtt-update-refused']);
  const people = [...person(ctx, 'admin'), ...person(ctx, 'low'), ...person(ctx, 'operator')];
  const judged = (check: StateCheckName, operationId: string, exchange: Parameters<StateReal['judged']>[2]): void => {
    const found = stateChecks.find((c) => c.name === check);
    if (found) ctx.evaluate(exchange, { checks: [apply(found, {})], reportAs: { operationId } });
  };
  // An error that is no finding (the run's deadline, a block): stop drawing, and throw it after.
  let aborted: { error: unknown } | undefined;
  const property = (kind: readonly fc.Arbitrary<fc.AsyncCommand<StateModel, StateReal>>[]) =>
    fc.asyncProperty(fc.limitShrink(fc.commands([...kind], { maxCommands: MAX_COMMANDS, size: 'max' }), SHRINKS), async (cmds) => {
      if (aborted) return;
      const model = emptyModel();
      const real: StateReal = { ctx, cite, window, subject, people, steps: [], touched: new Set(), judged };
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } catch (error) {
        if (error instanceof ModelFailure) throw error;
        aborted = { error };
      } finally {
        await restore(ctx, real, model).catch((error: unknown) => void (aborted ??= { error }));
      }
    });
  const kinds = commandArbitraries(window.records.length);
  const cite = citations(ctx.spec);
  try {
    // One finding of each kind at most: the first rule a sequence broke, shrunk.
    for (const kind of [...(subject ? [kinds.tokens] : []), kinds.sessions, kinds.payloads]) {
      const details = await fc.check(property(kind), { seed: ctx.random.int(0, 2 ** 31 - 1), numRuns: RUNS });
      if (aborted) throw aborted.error;
      const failure = details.errorInstance;
      if (details.failed && failure instanceof ModelFailure) {
        const check = stateChecks.find((c) => c.name === failure.finding.check);
        const last = failure.steps.at(-1);
        if (check && last) ctx.evaluate(last, { checks: [apply(check, { finding: failure.finding })], reportAs: { operationId: failure.finding.operationId }, steps: failure.steps });
      }
    }
  } finally {
    // The run leaves no live token of its own making.
    if (subject) await ctx.send({ operationId: 'revokeAuthToken', key: 'sequence/restore/revoke-token', path: { id: subject.user.id }, auth: 'basic' });
  }
};
