import type { Operation } from '../spec/index.js';

/** Response headers by name (lower case), as an answer sends them. */
export type HeaderValues = Readonly<Record<string, string>>;

interface DocumentedHeader {
  readonly example?: unknown;
  readonly schema?: { example?: unknown };
  /** The `x-messages` key of the one refusal the header goes with; absent: any answer of its status. */
  readonly 'x-sent-with'?: unknown;
}

/** A response's headers that have an example and go with `sentWith` (undefined: with every answer of the status), with their examples. */
function headersWithExamples(headers: Readonly<Record<string, unknown>> | undefined, sentWith: string | undefined): [string, string][] {
  return Object.entries(headers ?? {}).flatMap(([name, header]) => {
    const { example: own, schema, 'x-sent-with': only } = header as DocumentedHeader;
    const example = own ?? schema?.example;
    return example === undefined || only !== sentWith ? [] : [[name.toLowerCase(), String(example)] as [string, string]];
  });
}

/**
 * The headers the document gives each status of the operation, from their examples (a 429's
 * `Retry-After`); statuses whose headers have no example are left out, and so are headers the
 * document sends with one refusal only (`x-sent-with`). An answer the fake makes up rather than
 * computes (a `Prefer: code=` answer, an injected fault) sends these, so that it carries what
 * the document says that status carries.
 */
export function documentedHeaders(operation: Operation): ReadonlyMap<number, HeaderValues> {
  const byStatus = new Map<number, HeaderValues>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const headers = headersWithExamples(response.headers, undefined);
    if (headers.length > 0) byStatus.set(Number(status), Object.fromEntries(headers));
  }
  return byStatus;
}

/**
 * The headers the document sends with one refusal only, the one whose message has this key in
 * `x-messages` (`x-sent-with`), from their examples in any operation's responses. Operations
 * that give one header different values make the document unusable: it throws.
 */
export function headersSentWith(operations: readonly Operation[], message: string): HeaderValues {
  const found = new Map<string, string>();
  for (const operation of operations) {
    for (const response of Object.values(operation.responses)) {
      for (const [name, value] of headersWithExamples(response.headers, message)) {
        const other = found.get(name);
        if (other !== undefined && other !== value) throw new Error(`The document gives the header ${name} sent with "${message}" two values, ${other} and ${value}.`);
        found.set(name, value);
      }
    }
  }
  return Object.fromEntries(found);
}
