import type { Cleared, RequestRecord } from '../../../spec/control-types.js';
import { journalEntry } from '../../journal/entry-view.js';
import type { ControlHandlerMap } from '../types.js';

interface RequestsQuery {
  readonly operationId?: string;
  readonly status?: string;
  readonly since?: string;
  readonly limit?: string;
}

export const requestControlHandlers: ControlHandlerMap = {
  listRequests: (request, _reply, { journal, secretMask }): RequestRecord[] => {
    const { operationId, status, since, limit } = request.query as RequestsQuery;
    const records = journal.list({
      ...(operationId !== undefined ? { operationId } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(since !== undefined ? { since: Number(since) } : {}),
      ...(limit !== undefined ? { limit: Number(limit) } : {}),
    });
    return records.map((record) => journalEntry(record, secretMask));
  },
  clearRequests: (_request, _reply, { journal }): Cleared => ({ cleared: journal.clear() }),
};
