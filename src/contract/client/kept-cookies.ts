import type { CookieJar } from 'tough-cookie';

/**
 * Most cookies an actor's jar holds. The API sets two (the session and its CSRF token); a server
 * that sets new ones on every answer would otherwise grow every later request's Cookie header,
 * each report's curl lines and the runner's memory without end.
 */
export const MAX_KEPT_COOKIES = 20;

/** The name of the cookie a Set-Cookie line sets. */
export const cookieName = (setCookie: string): string => /^\s*([^=;]*)/.exec(setCookie)?.[1]?.trim() ?? '';

/**
 * Stores an answer's Set-Cookie lines in the jar: the API's own cookies (`own`: the session
 * cookie the document names, the CSRF cookie) and those the jar already holds always, any other
 * while the jar holds fewer than MAX_KEPT_COOKIES with room for the API's own; returns the lines kept. Those past the bound are
 * dropped: the runner never sends them.
 */
export async function keepCookies(jar: CookieJar, url: string, lines: readonly string[], own: ReadonlySet<string>): Promise<string[]> {
  if (lines.length === 0) return [];
  const held = new Set((await jar.store.getAllCookies()).map((cookie) => cookie.key));
  let others = [...held].filter((name) => !own.has(name)).length;
  const kept: string[] = [];
  for (const line of lines) {
    const name = cookieName(line);
    if (!own.has(name) && !held.has(name)) {
      if (others >= MAX_KEPT_COOKIES - own.size) continue;
      others++;
    }
    await jar.setCookie(line, url, { ignoreError: true });
    held.add(name);
    kept.push(line);
  }
  return kept;
}
