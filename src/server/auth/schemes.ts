import type { Document } from '../../spec/index.js';
import type { SchemeKind } from './caller.js';

/** A security scheme of the document, reduced to what the guard needs. */
export interface Scheme {
  readonly name: string;
  readonly kind: SchemeKind;
  /** The cookie (session) or query parameter (token) that carries the credential; the header for basic. */
  readonly key: string;
}

/**
 * Reads the document's security schemes: HTTP Basic is a login and password, an apiKey in a
 * cookie is a session, an apiKey in the query is an API token. Any other kind of scheme is
 * refused at start rather than silently let through.
 */
export function readSchemes(document: Document): ReadonlyMap<string, Scheme> {
  const schemes = new Map<string, Scheme>();
  for (const [name, raw] of Object.entries(document.components?.securitySchemes ?? {})) {
    const s = raw as { type?: string; scheme?: string; in?: string; name?: string };
    let scheme: Scheme | undefined;
    if (s.type === 'http' && s.scheme?.toLowerCase() === 'basic') scheme = { name, kind: 'basic', key: 'authorization' };
    else if (s.type === 'apiKey' && s.in === 'cookie' && s.name) scheme = { name, kind: 'session', key: s.name };
    else if (s.type === 'apiKey' && s.in === 'query' && s.name) scheme = { name, kind: 'token', key: s.name };
    if (!scheme) throw new Error(`The fake does not support the security scheme "${name}" (${JSON.stringify(raw)}).`);
    schemes.set(name, scheme);
  }
  return schemes;
}

/** The name of the session cookie the document defines. */
export function sessionCookieName(schemes: ReadonlyMap<string, Scheme>): string {
  for (const scheme of schemes.values()) if (scheme.kind === 'session') return scheme.key;
  throw new Error('The document defines no session cookie scheme.');
}
