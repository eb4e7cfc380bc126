// Secret fields of JSON by name (a token, a password, a session id: secret-names.ts) and string
// values shaped like password hashes, masked whatever their value, in JSON text, even cut off.
import { isHashLike, isSecretName } from './secret-names.js';

// A JSON string, whole or cut off at the end of the text, and after it a string value when it is a key.
const STRING = String.raw`"((?:[^"\\]|\\.)*)\\?("|$)`;
const STRING_OR_FIELD = new RegExp(String.raw`${STRING}(?:(\s*:\s*)${STRING})?`, 'g');

/** JSON text (or any text holding JSON, whole or cut off) with the string values of secret fields, and hash-like strings, replaced by `mask`. */
export function maskSecretFields(text: string, mask: string): string {
  return text.replace(STRING_OR_FIELD, (whole, key: string, keyEnd: string, colon: string | undefined, value: string | undefined, valueEnd: string | undefined) => {
    if (colon === undefined) return isHashLike(key) ? `"${mask}${keyEnd}` : whole;
    return isSecretName(key) || isHashLike(value ?? '') ? `"${key}"${colon}"${mask}${valueEnd ?? ''}` : whole;
  });
}

const MAX_DEPTH = 64;

/** Strings anywhere in a value (objects, arrays), mapped; the rest as it is. A value nested deeper than any output's is cut off, not walked. */
export function mapStrings(value: unknown, map: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return map(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return map('');
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [map(k), mapStrings(v, map, depth + 1)]));
}
