// Credentials a URL carries: the values of query parameters named like secrets (secret-names.ts)
// and the userinfo of an absolute URL (`http://user:password@host`, `http://token@host`).
import { isSecretName } from './secret-names.js';

/** Percent-decoded text (in a query, `+` a space too); the text as it is when it does not decode. */
export function decoded(text: string, query = true): string {
  try {
    return decodeURIComponent(query ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
}

// The userinfo of an absolute URL: what lies between `scheme://` and the last `@` before the path.
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;

/** The URL (origin-form `/path?…` or absolute) with its userinfo (login and password) and the values of its secret query parameters replaced by `mask`. */
export function maskUrl(target: string, mask: string): string {
  const url = target.charCodeAt(0) === 47 ? target : target.replace(USERINFO, (_all, scheme: string) => `${scheme}${mask}@`);
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const query = url
    .slice(q + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 && isSecretName(decoded(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${mask}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}${url.slice(end)}`;
}

// In free text: the userinfo of a URL, and a query parameter wherever it is (`?name=value`, `&name=value`).
const USERINFO_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>]*@/gi;
const PARAMETER_IN_TEXT = /([?&;])([^=&#\s"'<>?;]+)=[^&#\s"'<>;]*/g;

/** Free text with every URL's userinfo and every secret query parameter in it masked, as maskUrl masks them. */
export const maskUrlsIn = (text: string, mask: string): string =>
  text.replace(USERINFO_IN_TEXT, `$1${mask}@`).replace(PARAMETER_IN_TEXT, (all, separator: string, name: string) => (isSecretName(decoded(name)) ? `${separator}${name}=${mask}` : all));
