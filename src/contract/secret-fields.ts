// Secret fields of JSON by name (a token, a password, a session id) and string values shaped like
// password hashes: masked whatever their value, in parsed JSON and in JSON text, even cut off.
import { parseJsonText } from './bounded-json.js';
import { isHashLike, isSensitiveKey } from './sensitive-data.js';

/** What a report shows in place of a secret. */
export const MASK = '***';
const SECRET_KEYS = /^(password|authenticationToken|token|sid|csrf|api-token|auth-token|x-csrf-token)$/i;

function maskJsonKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJsonKeys);
  if (typeof value === 'string') return isHashLike(value) ? MASK : value;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, (SECRET_KEYS.test(k) || isSensitiveKey(k)) && typeof v === 'string' ? MASK : maskJsonKeys(v)]));
}

/** Masks secret fields of a JSON text by name; other text (and JSON beyond the parsing bounds) is returned as it is. */
export function maskJsonText(text: string): string {
  const json = parseJsonText(text);
  return json === undefined ? text : JSON.stringify(maskJsonKeys(json));
}

// A JSON string, whole or cut off at the end of the text, and after it a string value when it is a key.
const STRING = String.raw`"((?:[^"\\]|\\.)*)\\?("|$)`;
const STRING_OR_FIELD = new RegExp(String.raw`${STRING}(?:(\s*:\s*)${STRING})?`, 'g');

/** A field whose string value a report never shows: a credential by name (token, sid, password, secret, hash…). */
export const isSecretKey = (key: string): boolean => SECRET_KEYS.test(key) || isSensitiveKey(key);

/**
 * Masks in JSON text what maskJsonText masks in parsed JSON (string fields named like secrets,
 * values shaped like password hashes), even in text cut off mid-way (the head of a long body).
 */
export function maskSecretFields(text: string): string {
  return text.replace(STRING_OR_FIELD, (whole, key: string, keyEnd: string, colon: string | undefined, value: string | undefined, valueEnd: string | undefined) => {
    if (colon === undefined) return isHashLike(key) ? `"${MASK}${keyEnd}` : whole;
    const masked = isSecretKey(key) || isHashLike(value ?? '');
    return masked ? `"${key}"${colon}"${MASK}${valueEnd ?? ''}` : whole;
  });
}
