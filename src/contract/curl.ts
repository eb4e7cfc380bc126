// A failing request as a curl command a person can paste (secrets already masked by the caller).
import type { SentRequest } from './types.js';

/** A text as one shell word, in single quotes. */
export const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const SKIPPED = new Set(['accept', 'content-length', 'host', 'connection']);

export function toCurl(request: SentRequest): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(quote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (!SKIPPED.has(name.toLowerCase())) parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}
