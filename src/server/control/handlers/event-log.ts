import type { EventLogRecordInput } from '../../../spec/control-types.js';
import type { ErrorDetail, EventLogRecord } from '../../../spec/types.js';
import type { ControlContext, ControlHandlerMap } from '../types.js';

/** Problems that refuse the whole body: `_id`s stored already or given twice. */
function duplicateIds(records: readonly EventLogRecord[], given: readonly EventLogRecordInput[], { state }: ControlContext): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  records.forEach((record, index) => {
    if (given[index]?._id === undefined) return;
    if (state.data.events.get(record._id) || seen.has(record._id)) details.push({ location: 'body', name: `/${index}/_id`, problem: 'already exists' });
    seen.add(record._id);
  });
  return details;
}

export const eventLogControlHandlers: ControlHandlerMap = {
  /** Completes each record (`_id`, `timestamp`), checks them all, then stores them all: all or nothing. */
  addEventLogRecords: (request, _reply, context) => {
    const { errors, clock, validator, nextRecordId, state } = context;
    const given = request.body as EventLogRecordInput[];
    const now = clock.now();
    const records = given.map((input) => {
      const timestamp = input.timestamp ?? now;
      return { ...input, _id: input._id ?? nextRecordId(timestamp), timestamp } as EventLogRecord;
    });
    const details = duplicateIds(records, given, context);
    records.forEach((record, index) => {
      for (const problem of validator.validateNamed('EventLogRecord', record)) {
        details.push({ location: 'body', name: `/${index}${problem.instancePath}`, problem: problem.message.slice(problem.message.indexOf(' ') + 1) });
      }
    });
    if (details.length > 0) {
      const first = details[0] as ErrorDetail;
      const message = first.problem === 'already exists'
        ? `Record _id "${records[Number(first.name.split('/')[1])]?._id}" already exists.`
        : `The body does not match the schema: ${first.name} ${first.problem}.`;
      throw errors('INVALID_BODY', message, { details });
    }
    return records.map((record) => state.data.events.add(record));
  },
};
