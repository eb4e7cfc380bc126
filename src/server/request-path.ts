// The request target: the host an absolute-form target names, and the path the router reads.

/** An absolute-form target: a scheme, `://`, then the authority (up to the path or the query). */
const ABSOLUTE_FORM = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i;
/** The schemes whose targets the router takes for their path alone (any other target is a path it does not know). */
const ROUTED_SCHEME = /^https?:\/\/$/i;

/**
 * The authority of an absolute-form request target the router routes (`GET http://host:port/path`),
 * or undefined for any other target (`/path`, `*`, another scheme). The router takes such a target
 * for its path alone, as RFC 9112 3.2.2 asks, and the host it names replaces the Host header; so
 * the Host checks must see this authority, not the header, or `GET http://evil.example/__control/reset`
 * with `Host: localhost` would pass them.
 */
export function targetAuthority(url: string): string | undefined {
  const match = ABSOLUTE_FORM.exec(url);
  return match !== null && ROUTED_SCHEME.test(match[1]!) ? match[2] : undefined;
}

/** Whether an absolute-form target, of any scheme, carries user info (`scheme://user:password@host`): HTTP never sends credentials there. */
export function targetHasUserinfo(url: string): boolean {
  const authority = ABSOLUTE_FORM.exec(url)?.[2];
  return authority !== undefined && hasUserinfo(authority);
}

/**
 * Whether an authority (a target's, or a Host header, which is `host[:port]` and nothing more,
 * RFC 9110 7.2) carries user info: no host or port has an `@`, so one is the end of user info.
 */
export function hasUserinfo(authority: string): boolean {
  return authority.includes('@');
}

/**
 * The target in origin form (`/path?query`): a routed absolute-form target without its scheme and
 * authority, as the router takes it (`http://host?x` is `/?x`); any other target as it is.
 */
export function originForm(url: string): string {
  const match = ABSOLUTE_FORM.exec(url);
  if (match === null || !ROUTED_SCHEME.test(match[1]!)) return url;
  const rest = url.slice(match[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}

/**
 * The path of a request URL (up to `?` or `#`) with percent-escapes decoded as the router decodes
 * them before matching: `/%5F_control` is `/__control`, while `%2F` stays (it does not
 * separate segments), and without the scheme and host of an absolute-form target. Code that
 * reasons about paths (not-found answers, rate-limit keys) uses this, so a spelling the router
 * takes cannot dodge it.
 */
export function routedPath(target: string): string {
  // An absolute-form target (`http://host/path`) is routed by its path alone.
  const url = target.charCodeAt(0) === 47 /* '/' */ ? target : originForm(target);
  // The router ends the path at `?` or `#`. (indexOf: this runs for every counted request.)
  let end = url.indexOf('?');
  const hash = url.indexOf('#');
  if (hash >= 0 && (end < 0 || hash < end)) end = hash;
  const path = end < 0 ? url : url.slice(0, end);
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
