import type { ErrorDetail } from '../../spec/types.js';
import type { Snapshot } from '../../spec/control-types.js';
import { rangeProblem } from '../options.js';
import type { ControlContext } from './index.js';

export const SNAPSHOT_FORMAT = 'monitoring-api-kit/snapshot';

/** The whole state as one JSON document; session ids are never in it, API tokens are. */
export function takeSnapshot({ state, config, faults, clock }: ControlContext): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    version: 1,
    takenAt: clock.now(),
    // A user without a token has no `authenticationToken` in the answer's JSON.
    users: state.users.list().map((user) => ({ id: user.id, login: user.login, authenticationToken: state.tokens.tokenOf(user.id) })),
    sessions: { count: state.sessions.size },
    eventLog: state.data.events.snapshot(),
    blockLog: state.data.blocks.snapshot(),
    activeBlocks: state.data.limiter.activeBlocks(),
    config: config.get(),
    faults: faults.list(),
  };
}

/** What makes a snapshot (valid by its schema) unusable here: unknown users, a token or record _id used twice. */
export function snapshotProblems(snapshot: Snapshot, { state }: ControlContext): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const problem = (name: string, text: string) => details.push({ location: 'body', name, problem: text });
  const tokens = new Set<string>();
  const users = new Set<string>();
  snapshot.users.forEach((user, i) => {
    if (state.users.byId(user.id)?.login !== user.login) problem(`/users/${i}`, 'is not a seed user (id and login must match one)');
    if (users.has(user.id)) problem(`/users/${i}/id`, 'is listed twice');
    users.add(user.id);
    if (user.authenticationToken === undefined) return;
    if (tokens.has(user.authenticationToken)) problem(`/users/${i}/authenticationToken`, 'is the token of another user too');
    tokens.add(user.authenticationToken);
  });
  for (const [operationId, latency] of Object.entries(snapshot.config.operationLatencyMs ?? {})) details.push(...rangeProblem(latency, `/config/operationLatencyMs/${operationId}`));
  snapshot.faults.forEach((fault, i) => details.push(...rangeProblem(fault.delayMs, `/faults/${i}/delayMs`)));
  const ids = new Set<string>();
  snapshot.eventLog.forEach((record, i) => {
    if (ids.has(record._id)) problem(`/eventLog/${i}/_id`, 'is the _id of another record too');
    ids.add(record._id);
  });
  return details;
}

/** Replaces the whole state by a checked snapshot. Sessions end; rate-limit windows start empty. */
export function restoreSnapshot(snapshot: Snapshot, { state, config, faults }: ControlContext): void {
  state.tokens.clear();
  for (const user of snapshot.users) if (user.authenticationToken !== undefined) state.tokens.assign(user.id, user.authenticationToken);
  state.sessions.clear();
  state.data.events.restore(snapshot.eventLog);
  state.data.blocks.restore(snapshot.blockLog);
  config.replace(snapshot.config);
  state.data.limiter.restoreActiveBlocks(snapshot.activeBlocks);
  faults.restore(snapshot.faults);
}
