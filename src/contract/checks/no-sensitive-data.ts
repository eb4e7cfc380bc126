import type { Operation } from '../../spec/index.js';
import { describeSecret, isHashLike, isSensitiveKey } from '../sensitive-data.js';
import type { CheckContext, Citation, Exchange } from '../types.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

const OWASP: Citation = {
  source: 'security',
  ref: 'OWASP API3:2023',
  text: 'Broken Object Property Level Authorization (excessive data exposure): an answer carries no credential the caller did not just create.',
};

// Deeper than any answer of this API; a hostile body nested further is not walked to the end.
const MAX_DEPTH = 32;

interface Exposure {
  readonly path: string;
  readonly what: string;
  readonly value: unknown;
}

/** Whether the documented answer of this status is a user record (the document's User schema). */
function isUserRecord(op: Operation, status: number, context: CheckContext): boolean {
  const user = context.spec.document.components?.schemas?.User;
  return user !== undefined && context.validator.responseFor(op.operationId, status)?.content?.['application/json']?.schema === user;
}

function exposures(exchange: Exchange, context: CheckContext, userRecord: boolean): Exposure[] {
  const json = exchange.response?.json;
  const { credentials } = context;
  const recordId = userRecord && typeof (json as Record<string, unknown> | undefined)?.id === 'string' ? (json as Record<string, string>).id : undefined;
  const found: Exposure[] = [];
  const visit = (value: unknown, path: string, key: string | undefined, depth: number): void => {
    if (userRecord && key !== undefined && isSensitiveKey(key) && value !== null && value !== '') {
      found.push({ path, what: 'a password-like field', value });
      return;
    }
    if (typeof value === 'string') {
      if (userRecord && isHashLike(value)) found.push({ path, what: 'a password hash', value });
      else if (credentials.sessionIdIn(value) !== undefined && !(exchange.operationId === 'createSession' && path === '')) found.push({ path, what: 'a session id', value });
      else {
        const token = credentials.tokenIn(value);
        if (token === undefined) return;
        const owner = credentials.tokenOwner(token);
        const ownRecord = userRecord && path === '/authenticationToken' && value === token && (owner === undefined || owner === recordId);
        const justCreated = exchange.operationId === 'createAuthToken' && path === '';
        if (!ownRecord && !justCreated) found.push({ path, what: owner && owner !== recordId ? `the API token of another user (${owner})` : 'an API token', value });
      }
      return;
    }
    if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
    for (const [k, v] of Object.entries(value)) visit(v, `${path}/${k}`, Array.isArray(value) ? undefined : k, depth + 1);
  };
  visit(json, '', undefined, 0);
  return found;
}

/**
 * An answer never carries a credential the caller did not just create (OWASP API3): no
 * password, secret or hash-like field in a user record, no API token of another user, no
 * session id outside the log-in answer. Shows where, with the value masked.
 */
export const noSensitiveData = defineCheck({
  name: 'no-sensitive-data',
  title: 'No credential the caller did not just create in the answer (OWASP API3)',
  run(exchange, context) {
    const response = exchange.response;
    if (!response || response.json === undefined) return [];
    const op = context.spec.operation(exchange.operationId);
    const found = exposures(exchange, context, isUserRecord(op, response.status, context));
    if (found.length === 0) return [];
    const listed = found.slice(0, 4).map((e) => `${e.path || '(root)'}: ${e.what} ${describeSecret(e.value)}`);
    return [
      failure(this, exchange, {
        message: `${listed.join('; ')}${found.length > 4 ? `; and ${found.length - 4} more` : ''}`,
        expected: 'no password, secret or hash, no API token of another user and no session id in the answer',
        citation: OWASP,
      }),
    ];
  },
});
