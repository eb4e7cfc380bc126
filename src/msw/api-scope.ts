/** The requests the handlers answer: those under `baseUrl` + `/node/api` or `/__control`, and how the fake names each. */
export interface ApiScope {
  /** Matches the URL (without query) of every request the fake answers. */
  readonly pattern: RegExp;
  /** The request's path and query as the fake sees them: `baseUrl`'s own path taken off. */
  pathOf(url: string): string;
}

/** The fake's two roots: the monitoring API and its control API. */
const ROOTS = ['/node/api', '/__control'];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `baseUrl` as the app calls the API: absolute (`http://localhost:3000`, maybe with a path),
 * or, where there is a page (jsdom, a browser), relative to it.
 */
export function apiScope(baseUrl: string): ApiScope {
  const page = typeof location === 'undefined' ? undefined : location.href;
  let base: URL;
  try {
    base = new URL(baseUrl, page);
  } catch {
    throw new TypeError(`baseUrl ${JSON.stringify(baseUrl)} is no URL: give the origin the app calls, e.g. "http://localhost:3000" (relative only where there is a page, in jsdom or a browser)`);
  }
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  return {
    pattern: new RegExp(`^${escape(prefix)}(?:${ROOTS.map(escape).join('|')})(?:/.*)?$`),
    pathOf(url) {
      const { href } = new URL(url);
      return href.slice(prefix.length).replace(/#.*$/, '');
    },
  };
}
