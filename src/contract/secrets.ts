// Secrets never reach a report: every password, token, session id and cookie the runner sends
// or receives is remembered here and masked wherever it appears.
import type { SentRequest } from './types.js';

const MASK = '***';
const SECRET_KEYS = /^(password|authenticationToken|token|sid|csrf|api-token|auth-token|x-csrf-token)$/i;

export interface Secrets {
  add(value: string | undefined): void;
  /** Replaces every known secret in a text. */
  mask(text: string): string;
  /** A request with its secrets masked: Authorization, Cookie, tokens in the query, passwords in the body. */
  maskRequest(request: SentRequest): SentRequest;
}

function maskJsonKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJsonKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) && typeof v === 'string' ? MASK : maskJsonKeys(v)]));
}

/** Masks secret fields of a JSON text by name; other text is returned as it is. */
export function maskJsonText(text: string): string {
  try {
    return JSON.stringify(maskJsonKeys(JSON.parse(text)));
  } catch {
    return text;
  }
}

function maskHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization') return value.replace(/^(\S+)\s.*$/, `$1 ${MASK}`);
  if (lower === 'cookie') return value.replace(/=([^;]*)/g, `=${MASK}`);
  if (lower === 'x-csrf-token') return MASK;
  return value;
}

export function createSecrets(): Secrets {
  const known = new Set<string>();
  const mask = (text: string): string => {
    let out = text;
    // Longest first, so a secret that contains another is masked whole.
    for (const secret of [...known].sort((a, b) => b.length - a.length)) out = out.split(secret).join(MASK);
    return out;
  };
  return {
    add(value) {
      // Very short values (an empty password, "1") would mask ordinary text.
      if (value && value.length >= 4) {
        known.add(value);
        known.add(encodeURIComponent(value));
      }
    },
    mask,
    maskRequest(request) {
      const url = new URL(request.url);
      for (const name of ['api-token', 'auth-token']) if (url.searchParams.has(name)) url.searchParams.set(name, MASK);
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, mask(maskHeader(k, v))]));
      return {
        method: request.method,
        url: mask(url.href.replace(/%2A%2A%2A/g, MASK)),
        headers,
        ...(request.body === undefined ? {} : { body: mask(maskJsonText(request.body)) }),
      };
    },
  };
}
