// The spellings a secret may take on its way into a report, through the encodings a server may
// put it through before echoing it.
import { base64Cores } from './base64-cores.js';

/**
 * One layer of encoding a server may put a text through before echoing it, applied to a secret
 * inside that text: what the encoded text holds of it. Percent- and form-encoding (either case of
 * hex digit), JSON escapes and hex encode character by character, so the secret's own encoding is
 * a substring; base64 and base64url do not, so the secret's whole encoding (a text that is only
 * the secret) and its cores (a secret anywhere in a longer text, base64-cores.ts) stand for it.
 */
function encodings(value: string): string[] {
  const bytes = Buffer.from(value);
  const base64 = bytes.toString('base64');
  const hex = bytes.toString('hex');
  const percent = [encodeURIComponent(value), encodeURI(value), new URLSearchParams({ v: value }).toString().slice(2)];
  const lowerHex = percent.map((text) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()));
  return [...percent, ...lowerHex, JSON.stringify(value).slice(1, -1), hex, hex.toUpperCase(), base64, base64.replace(/=+$/, ''), bytes.toString('base64url'), ...base64Cores(value)];
}

/**
 * Longer values (no password, token or session id is) are masked through one layer only: two
 * layers make up to a few hundred times the value's length in spellings, which a server setting
 * a long cookie on each answer would otherwise make the runner keep.
 */
const MAX_TWICE = 1024;

/**
 * The spellings a secret may take on its way into a report: as sent, and through one or two
 * layers of encoding (a Basic header base64-encoded again, the base64 of a percent-encoded body,
 * a percent-encoded base64 cookie). Two layers bound the work: a few dozen to a few hundred
 * spellings a secret, each found in one pass (literal-masker.ts); a third layer would multiply
 * them again.
 */
export function spellings(value: string): Set<string> {
  const once = new Set([value, ...encodings(value)]);
  if (value.length > MAX_TWICE) return once;
  const twice = new Set(once);
  for (const spelling of once) for (const encoded of encodings(spelling)) twice.add(encoded);
  return twice;
}
