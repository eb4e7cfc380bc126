import type { RequestAuth, RequestRecord } from '../../spec/control-types.js';
import type { ApiErrorBody } from '../../spec/types.js';
import type { JournalRecord } from '../../store/request-journal.js';
import { maskUrl } from '../logging.js';

/** The error body of an error answer, when it is the document's Error body (it always is, but it is read back from text). */
function errorOf(text: string | undefined): ApiErrorBody | undefined {
  if (text === undefined) return undefined;
  try {
    const body = JSON.parse(text) as ApiErrorBody | null;
    return body && typeof body === 'object' && typeof body.code === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
}

/** A journal record as the control API shows it: its URL masked as the logs mask it, its error body parsed. */
export function journalEntry(record: JournalRecord): RequestRecord {
  const error = errorOf(record.errorText);
  const auth: RequestAuth | undefined =
    record.authMethod !== undefined && record.userId !== undefined
      ? { method: record.authMethod as RequestAuth['method'], userId: record.userId, login: record.login ?? '' }
      : undefined;
  return {
    id: record.id,
    time: record.time,
    method: record.method,
    url: maskUrl(record.rawUrl),
    ...(record.operationId !== undefined ? { operationId: record.operationId } : {}),
    ...(auth ? { auth } : {}),
    ...(record.origin !== undefined ? { origin: record.origin } : {}),
    status: record.status,
    durationMs: Math.round(record.durationMs * 10) / 10,
    ...(error ? { error } : {}),
  };
}
