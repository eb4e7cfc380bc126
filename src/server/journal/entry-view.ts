import type { RequestAuth, RequestRecord } from '../../spec/control-types.js';
import type { ApiErrorBody } from '../../spec/types.js';
import type { JournalRecord } from '../../store/request-journal.js';
import { maskUrl } from '../../shared/redaction/mask-url.js';
import { LOG_MASK } from '../../shared/redaction/secret-names.js';
import type { SecretMask } from './secret-mask.js';

type ResponseBodyFields = Pick<RequestRecord, 'error' | 'responseBody' | 'responseText' | 'responseBodyTruncated' | 'responseBodyDropped'>;

const isErrorBody = (body: unknown): body is ApiErrorBody => typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).code === 'string';

/**
 * An answer's body as the control API shows it: an error answer's Error body parsed; a successful
 * answer's parsed, with the values the document marks `x-secret` masked; the head of a long body,
 * and a text that is not JSON, as text, unless the answer's schema holds a secret (then it is not
 * shown: nothing there can be masked).
 */
function responseBodyOf(record: JournalRecord, secretMask: SecretMask): ResponseBodyFields {
  if (record.bodyCut === 'dropped') return { responseBodyDropped: true };
  const text = record.body?.toString();
  if (!text) return {};
  const truncated: ResponseBodyFields = record.bodyCut === 'head' ? { responseBodyTruncated: true } : {};
  try {
    const body: unknown = JSON.parse(text);
    if (record.status >= 400) return isErrorBody(body) ? { error: body } : {};
    return { responseBody: secretMask.mask(record.operationId, record.status, body), ...truncated };
  } catch {
    return secretMask.holdsSecrets(record.operationId, record.status) ? truncated : { responseText: text, ...truncated };
  }
}

/** A journal record as the control API shows it: its URL masked as the logs mask it, its body as responseBodyOf shows it. */
export function journalEntry(record: JournalRecord, secretMask: SecretMask): RequestRecord {
  const auth: RequestAuth | undefined =
    record.authMethod !== undefined && record.userId !== undefined
      ? { method: record.authMethod as RequestAuth['method'], userId: record.userId, login: record.login ?? '' }
      : undefined;
  return {
    id: record.id,
    time: record.time,
    method: record.method,
    url: maskUrl(record.rawUrl, LOG_MASK),
    ...(record.operationId !== undefined ? { operationId: record.operationId } : {}),
    ...(auth ? { auth } : {}),
    ...(record.origin !== undefined ? { origin: record.origin } : {}),
    status: record.status,
    durationMs: Math.round(record.durationMs * 10) / 10,
    ...responseBodyOf(record, secretMask),
  };
}
