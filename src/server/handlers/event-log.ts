import { parseEventLogQuery, type RawEventLogQueryParams } from '../../store/event-log-query.js';
import { FilterTooCostlyError } from '../../store/event-log-select.js';
import type { PayloadUpdate } from '../../spec/types.js';
import { queryRefused } from './query-problems.js';
import type { HandlerMap } from './types.js';

export const eventLogHandlers: HandlerMap = {
  // Answers at once when the query takes one slice; a longer one yields to other requests.
  getEventLog: (request, _reply, { state, errors, filterLimits }) => {
    const parsed = parseEventLogQuery(request.query as RawEventLogQueryParams, filterLimits);
    if (!parsed.ok) throw queryRefused(parsed.problems, errors);
    const refusal = (error: unknown) => {
      if (error instanceof FilterTooCostlyError) return queryRefused([{ name: 'filter', problem: error.problem }], errors);
      return error;
    };
    try {
      const records = state.data.events.queryInSlices(parsed.query, filterLimits, () => performance.now());
      return Array.isArray(records)
        ? records
        : records.catch((error: unknown) => {
            throw refusal(error);
          });
    } catch (error) {
      throw refusal(error);
    }
  },

  updateEventLogPayload: (request, _reply, { state, errors }) => {
    const { id } = request.params as { id: string };
    const result = state.data.events.updatePayload(id, request.body as PayloadUpdate);
    if (result.ok) return;
    switch (result.reason) {
      case 'not-found':
        throw errors('NOT_FOUND', `No event log record has id "${id}".`);
      case 'not-snmp':
        throw errors('NOT_AN_SNMP_RECORD', `Record "${id}" is an ${result.type}; only snmp-trap payloads can be updated.`);
      case 'invalid-update':
        throw errors('INVALID_BODY', `body field "${result.field}" ${result.problem}`, {
          details: [{ location: 'body', name: result.field, problem: result.problem }],
        });
    }
  },
};
