import type { Snapshot } from '../../../spec/control-types.js';
import { listedDetails } from '../body-problems.js';
import { restoreSnapshot, snapshotProblems, takeSnapshot } from '../snapshot.js';
import { needsEventLog } from '../../event-log-wait.js';
import type { ControlContext, ControlHandlerMap } from '../types.js';
import { resetAll, summarize } from '../whole-state.js';

// Each waits for the event log's records while they are being made (it counts, holds or replaces them).
export const stateControlHandlers: ControlHandlerMap = {
  resetState: needsEventLog((request, _reply, context: ControlContext) => {
    return resetAll(context, request.query as { keepConfig?: boolean; keepSessions?: boolean });
  }),

  exportSnapshot: needsEventLog((_request, _reply, context: ControlContext) => takeSnapshot(context)),

  importSnapshot: needsEventLog((request, _reply, context: ControlContext) => {
    const snapshot = request.body as Snapshot;
    const details = snapshotProblems(snapshot, context);
    if (details.length > 0) {
      const first = details[0]!;
      throw context.errors('INVALID_BODY', context.controlMessages('INVALID_BODY', 'snapshotUnusable', { name: first.name ?? '', problem: first.problem }), { details: listedDetails(context.spec, details) });
    }
    restoreSnapshot(snapshot, context);
    return summarize(context);
  }),
};
