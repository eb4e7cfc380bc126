// A run whose every answer was a redirect never reached the API: a staging server behind a log-in
// proxy, or a base URL without the API's path prefix. The runner follows no redirect (credentials
// never leave the base URL), so each 3xx stays an undocumented status on its operation; this note
// says once, for the whole run, why that is likely. Of each Location it shows the origin and path
// only: the query and fragment of a log-in URL carry state and tokens. Reporters mask it like any
// other text (reporters/masked.ts).
import type { Exchange } from '../types.js';

/** Places named at most; a server that redirects each request to itself names one per request. */
const MAX_PLACES = 3;
/** Characters shown of one place at most. */
const MAX_PLACE_CHARS = 200;

/** The note with these statuses and places, and how many places more there were (own-text.ts writes it as the runner's own words). */
export function redirectNoteText(statuses: readonly number[], places: readonly string[], more: number): string {
  const where = places.length === 0 ? 'without a Location' : `to ${places.join(', ')}${more > 0 ? ` and ${more} other place(s)` : ''}`;
  return `every answer was a redirect (${statuses.join(', ')} ${where}): the runner follows none, so the API was not reached; --base-url may be behind a log-in page or lack a path prefix`;
}

/** Where a Location points, without its query, fragment or userinfo; undefined when it is no URL. */
function placeOf(location: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(location, requestUrl);
  } catch {
    return undefined;
  }
  // Another scheme (data:, javascript:) has no origin, and its path is all its content.
  const place = url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}${url.pathname}` : url.protocol;
  return place.length > MAX_PLACE_CHARS ? `${place.slice(0, MAX_PLACE_CHARS)}…` : place;
}

const isRedirect = (status: number): boolean => status >= 300 && status < 400;

/** The note when every answered exchange (one at least) was a redirect; else undefined. */
export function redirectNote(exchanges: readonly Exchange[]): string | undefined {
  const answered = exchanges.flatMap((e) => (e.response ? [{ response: e.response, url: e.request.url }] : []));
  if (answered.length === 0 || !answered.every((a) => isRedirect(a.response.status))) return undefined;
  const statuses = [...new Set(answered.map((a) => a.response.status))].sort((a, b) => a - b);
  // Places by how often they were named, the most frequent first (a stable sort keeps first seen first).
  const counts = new Map<string, number>();
  for (const { response, url } of answered) {
    const header = response.headers.location;
    const location = Array.isArray(header) ? header[0] : header;
    const place = location === undefined ? undefined : placeOf(location, url);
    if (place !== undefined) counts.set(place, (counts.get(place) ?? 0) + 1);
  }
  const places = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([place]) => place);
  return redirectNoteText(statuses, places.slice(0, MAX_PLACES), Math.max(0, places.length - MAX_PLACES));
}
