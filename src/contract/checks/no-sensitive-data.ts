import type { Operation } from '../../spec/index.js';
import { markedPlaces } from '../client/credentials.js';
import { describeSecret, isHashLike, isSensitiveKey } from '../../shared/redaction/secret-names.js';
import type { CheckContext, Citation, Exchange } from '../types.js';
import { failure, defineCheck } from './check.js';

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
  /** Why there: said of a token, whose place the document decides. */
  readonly where?: string;
}

function exposures(exchange: Exchange, context: CheckContext, op: Operation, userRecord: boolean): Exposure[] {
  const response = exchange.response;
  const json = response?.json;
  const { credentials } = context;
  // Where the document lets a credential be in this answer: the places it marks `x-secret`.
  const marked = new Set(markedPlaces(op, response?.status ?? 0, json).map((place) => place.path));
  const subject = credentials.subjectOf(exchange);
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
        const whose = owner === undefined ? 'an API token' : `the API token of user ${owner}`;
        // A marked place holds the token of the user the answer is about, as the whole value.
        if (!marked.has(path)) found.push({ path, what: whose, value, where: 'where the document marks no credential' });
        else if (value !== token) found.push({ path, what: whose, value, where: 'inside a longer text where the document marks a credential' });
        else if (owner !== undefined && owner !== subject) found.push({ path, what: whose, value, where: `where the document marks the token of ${subject === undefined ? 'the user the answer is about' : `user ${subject}`}` });
      }
      return;
    }
    if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
    for (const [k, v] of Object.entries(value)) visit(v, `${path}/${k}`, Array.isArray(value) ? undefined : k, depth + 1);
  };
  visit(json, '', undefined, 0);
  return found;
}

/** An answer carries no credential the caller did not just create (OWASP API3); a finding shows where, the value masked. */
export const noSensitiveData = defineCheck({
  name: 'no-sensitive-data',
  title: 'No credential the caller did not just create in the answer (OWASP API3)',
  run(exchange, context) {
    const response = exchange.response;
    if (!response || response.json === undefined) return [];
    const op = context.spec.operation(exchange.operationId);
    // Whether the documented answer of this status is a user record (the document's User schema).
    const user = context.spec.document.components?.schemas?.User;
    const found = exposures(exchange, context, op, user !== undefined && context.validator.responseFor(op.operationId, response.status)?.content?.['application/json']?.schema === user);
    if (found.length === 0) return [];
    const listed = found.slice(0, 4).map((e) => `${e.path || '(root)'}: ${e.what} ${describeSecret(e.value)}${e.where ? ` ${e.where}` : ''}`);
    return [
      failure(this, exchange, {
        message: `${listed.join('; ')}${found.length > 4 ? `; and ${found.length - 4} more` : ''}`,
        expected: 'no password, secret or hash, no API token but the token of the user the answer is about where the document marks one, and no session id in the answer',
        citation: OWASP,
      }),
    ];
  },
});
