import type { RequestAuth, RequestRecord } from '../../spec/control-types.js';
import type { ApiErrorBody } from '../../spec/types.js';
import type { JournalRecord } from '../../store/request-journal.js';
import { maskUrl } from '../logging.js';
import type { SecretMask } from './secret-mask.js';

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

type ResponseBodyFields = Pick<RequestRecord, 'responseBody' | 'responseText' | 'responseBodyTruncated' | 'responseBodyDropped'>;

/**
 * A successful answer's body as the control API shows it: parsed, with the values the document
 * marks `x-secret` masked; a text that is not JSON as it is, unless the answer's schema holds a
 * secret (then it is not shown: nothing there can be masked).
 */
function responseBodyOf(record: JournalRecord, secretMask: SecretMask): ResponseBodyFields {
  if (record.bodyCut === 'dropped') return { responseBodyDropped: true };
  const text = record.body?.toString();
  if (!text) return {};
  const truncated: ResponseBodyFields = record.bodyCut === 'head' ? { responseBodyTruncated: true } : {};
  try {
    return { responseBody: secretMask.mask(record.operationId, record.status, JSON.parse(text)), ...truncated };
  } catch {
    return secretMask.holdsSecrets(record.operationId, record.status) ? truncated : { responseText: text, ...truncated };
  }
}

/**
 * A journal record as the control API shows it: its URL masked as the logs mask it, its error
 * body parsed, a successful answer's body with its secrets masked.
 */
export function journalEntry(record: JournalRecord, secretMask: SecretMask): RequestRecord {
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
    ...responseBodyOf(record, secretMask),
  };
}
