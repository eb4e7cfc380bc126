// Values in a case: {{name}} templates filled, and values captured from an answer.
import { bodyToken } from '../client/credentials.js';
import { valueAt } from '../checks/check.js';
import type { ReceivedResponse, Exchange } from '../types.js';
import type { CaseStep } from './load-cases.js';

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** The variable names a value refers to, with the JSON path where each occurs. */
export function variablesIn(value: unknown, at = ''): { name: string; at: string }[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => ({ name: m[1] ?? '', at }));
  if (Array.isArray(value)) return value.flatMap((v, i) => variablesIn(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => variablesIn(v, at ? `${at}.${k}` : k));
  return [];
}

export function fill<T>(value: T, vars: ReadonlyMap<string, unknown>): T {
  if (typeof value === 'string') {
    const whole = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(value);
    if (whole?.[1] && vars.has(whole[1])) return vars.get(whole[1]) as T;
    return value.replace(PLACEHOLDER, (m, name: string) => (vars.has(name) ? String(vars.get(name)) : m)) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)])) as T;
  return value;
}

/** The value a body or header capture takes from an answer; undefined when there is none. */
export function answerValue(from: { readonly body: string } | { readonly header: string }, response: ReceivedResponse | undefined): unknown {
  // The whole body (`''`) is one value: a JSON string or a bare text token; an object or list is none.
  if ('body' in from) return from.body === '' ? bodyToken(response) : valueAt(response?.json, from.body === '/' ? '' : from.body);
  return response?.headers[from.header.toLowerCase()];
}

/**
 * What of a captured value is a credential: the value, the credential after an authentication
 * scheme (`Bearer <token>`), the value of a cookie (`sid=<id>; Path=/`); each string of a header
 * sent more than once.
 */
function credentialParts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(credentialParts);
  if (typeof value === 'number') return [String(value)];
  if (typeof value !== 'string') return [];
  const scheme = /^\s*[A-Za-z][\w-]*\s+(\S+)\s*$/.exec(value)?.[1];
  const cookie = /^\s*[^=;\s]+=([^;]*)/.exec(value)?.[1];
  return [value, ...(scheme ? [scheme] : []), ...(cookie ? [cookie] : [])];
}

/**
 * The values a step captures from its answer, each taken for a credential: a case captures what
 * later steps send, and those are most often credentials (cookies come from the jar, which masks
 * what it keeps).
 */
export function capturedCredentials(step: CaseStep, exchange: Exchange): string[] {
  return Object.values(step.capture ?? {}).flatMap((from) => ('cookie' in from ? [] : credentialParts(answerValue(from, exchange.response))));
}
