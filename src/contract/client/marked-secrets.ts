// The values of an answer that the document marks as credentials: `x-secret` on the schema of the
// body, of a field or of an item (under any allOf/anyOf/oneOf branch) of the response documented
// for the operation and status answered. Only these of a body become masks: a field that merely
// bears a credential's name (an `authenticationToken` in an answer that documents none) holds
// whatever word the server chose, and masked, that word would be cut out of every report.
import { documentedResponse, markedValues, type Operation } from '../../spec/index.js';
import { isSchemaNode } from '../../spec/schema-branches.js';
import type { ReceivedResponse } from '../types.js';
import { bodyToken } from './body-token.js';

// Deeper than any schema of this API; a value nested further is not read.
const MAX_DEPTH = 16;
/** Most values read of one answer: each is a mask every report text is matched against. */
const MAX_VALUES = 20;

/** A marked value and where it is in the body: `/field/0`, `` for the body itself. */
export interface MarkedPlace {
  readonly path: string;
  readonly value: string;
}

export function markedSecrets(operation: Operation, status: number, body: unknown): string[] {
  return markedPlaces(operation, status, body).map((place) => place.value);
}

/** The marked values of an answer with their places: where the document lets a credential be. */
export function markedPlaces(operation: Operation, status: number, body: unknown): MarkedPlace[] {
  const schema = documentedResponse(operation, status)?.content?.['application/json']?.schema;
  if (!isSchemaNode(schema)) return [];
  const found: MarkedPlace[] = [];
  // Only a string can be a credential sent back; places too deep are not read.
  for (const { kind, path, value } of markedValues(body, schema, { mark: 'x-secret', maxDepth: MAX_DEPTH })) {
    if (kind === 'marked' && typeof value === 'string') found.push({ path: path.map((key) => `/${key}`).join(''), value });
    if (found.length >= MAX_VALUES) break;
  }
  return found;
}

/** The marked values of an answer as the runner learns tokens from it: its JSON, else its body as a bare token. */
export function answerSecrets(operation: Operation, response: ReceivedResponse): string[] {
  return markedSecrets(operation, response.status, response.json ?? bodyToken(response));
}
