// A token or session id answered as the whole body: a JSON string (what the document chose) or a
// bare text token such as a UUID (what the field notes say real docs show for 4.1).
import { MIN_ISSUED_CHARS } from '../../shared/redaction/secret-values.js';
import type { ReceivedResponse } from '../types.js';

// One printable word: no spaces, so an HTML page or a sentence is never taken for a token.
const BARE_TOKEN = new RegExp(`^[A-Za-z0-9._~+/=-]{${MIN_ISSUED_CHARS},512}$`);

export function bodyToken(response: ReceivedResponse | undefined): string | undefined {
  if (!response) return undefined;
  if (typeof response.json === 'string') return response.json;
  if (response.json !== undefined) return undefined;
  const text = response.body.trim();
  return BARE_TOKEN.test(text) ? text : undefined;
}
