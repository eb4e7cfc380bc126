import { CookieJar } from 'tough-cookie';

/** What a fetch tells about cookies: where it goes, and whether it may carry them (`credentials`). */
type CookieRequest = Pick<Request, 'url' | 'credentials'>;

/** Whether a browser would send and store cookies on this request. */
export function carriesCookies({ url, credentials }: CookieRequest): boolean {
  if (credentials === 'include') return true;
  if (credentials !== 'same-origin') return false;
  // No page (Node): the request is its own origin.
  return typeof location === 'undefined' || location.origin === new URL(url).origin;
}

/** Whether page scripts see the API's cookies: cookies belong to a host name, whatever the port. */
const pageSeesCookiesOf = (url: string) => typeof document !== 'undefined' && typeof location !== 'undefined' && location.hostname === new URL(url).hostname;

/**
 * The cookies a browser would keep for the app, for answers MSW makes up (a browser never stores
 * their Set-Cookie, nor does Node's fetch; MSW 2's store sends attributes as cookies): a
 * tough-cookie jar with a browser's rules: `credentials: 'include'` always sends and stores,
 * `'same-origin'` when the API is on the page's origin (or there is no page), `'omit'` never.
 */
export function browserCookies() {
  let jar = new CookieJar();
  // tough-cookie looks the host up in the public suffix list on every read: not while the jar is empty.
  let empty = true;
  const shown = new Set<string>();
  return {
    /** The Cookie header this request carries: the one it was given (Node lets a caller set it) and the jar's. */
    header(request: CookieRequest, given: string | null): string | undefined {
      const kept = !empty && carriesCookies(request) ? jar.getCookieStringSync(request.url) : '';
      return [given, kept].filter((part) => part !== null && part !== '').join('; ') || undefined;
    },
    /** Keeps an answer's Set-Cookie lines; those a page may read also go to `document.cookie` when the API is on the page's host. */
    keep(request: CookieRequest, lines: readonly string[]): void {
      if (lines.length === 0 || !carriesCookies(request)) return;
      for (const line of lines) {
        const cookie = jar.setCookieSync(line, request.url, { ignoreError: true });
        if (cookie) empty = false;
        if (cookie && !cookie.httpOnly && pageSeesCookiesOf(request.url)) {
          document.cookie = line;
          shown.add(`${cookie.key}=; Path=${cookie.path ?? '/'}; Max-Age=0`);
        }
      }
    },
    /** Forgets every cookie, as a new browser profile would (and the copies in `document.cookie`). */
    clear(): void {
      jar = new CookieJar();
      empty = true;
      for (const expired of shown) document.cookie = expired;
      shown.clear();
    },
  };
}
