/** `http://` or `https://` (any case), then the authority: up to the path or the query. */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)/i;

/**
 * The authority of an absolute-form request target (`GET http://host:port/path`), or undefined
 * for any other form (`/path`, `*`). The router takes such a target for its path alone, as
 * RFC 9112 3.2.2 asks, and the host it names replaces the Host header; so the Host checks
 * must see this authority, not the header, or `GET http://evil.example/__control/reset` with
 * `Host: localhost` would pass them. The schemes are those the router strips.
 */
export function targetAuthority(url: string): string | undefined {
  return ABSOLUTE_FORM.exec(url)?.[1];
}

/**
 * The target in origin form (`/path?query`): an absolute-form target without its scheme and
 * authority, as the router takes it (`http://host?x` is `/?x`); any other target as it is.
 */
export function originForm(url: string): string {
  const match = ABSOLUTE_FORM.exec(url);
  if (match === null) return url;
  const rest = url.slice(match[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}
