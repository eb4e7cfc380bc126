import { originForm } from './request-target.js';

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
