import { completeEventRecords, type IndexedProblem } from '../../../spec/event-record-input.js';
import type { Cleared } from '../../../spec/control-types.js';
import type { EventLogRecord } from '../../../spec/types.js';
import { invalidBody, listedDetails, recordDetails } from '../body-problems.js';
import type { ControlContext, ControlHandlerMap } from '../types.js';

/** Completes each record (`_id`, `timestamp`) and checks them all; throws INVALID_BODY naming every problem. */
function checkedRecords(body: unknown, context: ControlContext, extra: (records: EventLogRecord[]) => IndexedProblem[] = () => []): EventLogRecord[] {
  const { errors, controlMessages: messages, clock, validator, nextRecordId } = context;
  const now = clock.now();
  const { records, problems } = completeEventRecords(body as unknown[], { now: () => now, nextId: nextRecordId }, validator);
  const stored = extra(records);
  if (stored.length > 0) {
    const first = stored[0] as IndexedProblem;
    throw errors('INVALID_BODY', messages('INVALID_BODY', 'idExists', { id: String(records[first.index]?._id) }), { details: listedDetails(context.spec, recordDetails([...stored, ...problems])) });
  }
  if (problems.length > 0) throw invalidBody(context, recordDetails(problems));
  return records;
}

/** Given `_id`s that are stored already. */
const storedIds = (given: readonly { _id?: string }[], { state }: ControlContext) => (records: EventLogRecord[]): IndexedProblem[] =>
  records.flatMap((record, index) => (given[index]?._id !== undefined && state.data.events.get(record._id) ? [{ index, pointer: '/_id', problem: 'already exists' }] : []));

export const eventLogControlHandlers: ControlHandlerMap = {
  /** All or nothing: every record is checked before any is stored. */
  addEventLogRecords: (request, _reply, context: ControlContext) => {
    const records = checkedRecords(request.body, context, storedIds(request.body as { _id?: string }[], context));
    return context.state.data.events.addAll(records);
  },

  replaceEventLog: (request, _reply, context: ControlContext) => {
    const records = checkedRecords(request.body, context);
    context.state.data.events.restore(records);
    return records.map((record) => context.state.data.events.get(record._id));
  },

  clearEventLog: (_request, _reply, { state }): Cleared => {
    const cleared = state.data.events.size;
    state.data.events.restore([]);
    return { cleared };
  },
};
