import type { Operation } from '../spec/index.js';

/** Response headers by name (lower case), as an answer sends them. */
export type HeaderValues = Readonly<Record<string, string>>;

/**
 * The headers the document gives each status of the operation, from their examples (a 429's
 * `Retry-After`); statuses whose headers have no example are left out. An answer the fake
 * makes up rather than computes (a `Prefer: code=` answer, an injected fault) sends these, so
 * that it carries what the document says that status carries.
 */
export function documentedHeaders(operation: Operation): ReadonlyMap<number, HeaderValues> {
  const byStatus = new Map<number, HeaderValues>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const headers = Object.entries(response.headers ?? {}).flatMap(([name, header]) => {
      const { example: own, schema } = header as { example?: unknown; schema?: { example?: unknown } };
      const example = own ?? schema?.example;
      return example === undefined ? [] : [[name.toLowerCase(), String(example)] as const];
    });
    if (headers.length > 0) byStatus.set(Number(status), Object.fromEntries(headers));
  }
  return byStatus;
}
