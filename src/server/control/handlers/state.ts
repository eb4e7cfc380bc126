import type { Snapshot } from '../../../spec/control-types.js';
import { listedDetails } from '../body-problems.js';
import { restoreSnapshot, snapshotProblems, takeSnapshot } from '../snapshot.js';
import type { ControlContext, ControlHandlerMap } from '../types.js';
import { resetAll, summarize } from '../whole-state.js';

export const stateControlHandlers: ControlHandlerMap = {
  resetState: (request, _reply, context: ControlContext) => resetAll(context, request.query as { keepConfig?: boolean; keepSessions?: boolean }),

  exportSnapshot: (_request, _reply, context: ControlContext) => takeSnapshot(context),

  importSnapshot: (request, _reply, context: ControlContext) => {
    const snapshot = request.body as Snapshot;
    const details = snapshotProblems(snapshot, context);
    if (details.length > 0) {
      const first = details[0]!;
      throw context.errors('INVALID_BODY', context.controlMessages('INVALID_BODY', 'snapshotUnusable', { name: first.name ?? '', problem: first.problem }), { details: listedDetails(context.spec, details) });
    }
    restoreSnapshot(snapshot, context);
    return summarize(context);
  },
};
