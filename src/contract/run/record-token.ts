// The administrator's API token as its own record shows it, when no --token was given: the value
// the document marks `x-secret` in the getCurrentUser answer documented for the status answered
// (marked-secrets.ts), not a field of a name the runner knows. An answer of a status the document
// does not describe marks nothing; a record whose schema marked several values would not say
// which is the token, and none is taken.
import type { Spec } from '../../spec/index.js';
import { markedSecrets } from '../client/marked-secrets.js';
import type { Exchange } from '../types.js';

export function recordToken(spec: Spec, me: Exchange): string | undefined {
  const response = me.response;
  if (!response) return undefined;
  const marked = markedSecrets(spec.operation(me.operationId), response.status, response.json);
  return marked.length === 1 && marked[0] !== '' ? marked[0] : undefined;
}
