// Small readers over response bodies shared by the checks.
import type { Exchange } from '../types.js';

export type Json = Record<string, unknown>;

/** The response body as a list of records, or undefined when it is not a JSON array. */
export function recordsOf(exchange: Exchange | undefined): Json[] | undefined {
  const json = exchange?.response?.json;
  return Array.isArray(json) ? (json.filter((r) => typeof r === 'object' && r !== null) as Json[]) : undefined;
}

export function isSuccess(exchange: Exchange): boolean {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status < 300;
}

export function describeValue(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
