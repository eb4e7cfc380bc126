// The only place the runner touches the network: one undici Agent, a deadline per request, no
// redirects followed, bodies read and parsed within bounds.
import { Agent, type Dispatcher, request } from 'undici';
import type { Exchange, SentRequest } from '../types.js';

/** Deep enough for any answer of the document; values enough for a page of 250 event log records (about 30 values each). */
export const JSON_LIMITS = { maxDepth: 100, maxValues: 8_000 };
export type JsonLimits = typeof JSON_LIMITS;

// Values of one record at most, with room: a trap with its varbinds counts up to 42 in the fake's data.
const VALUES_PER_RECORD = 64;

/** What the runner reads and parses of an answer when reference lists ask for `maxRecords` records: more records, more room. */
export function answerLimitsFor(maxRecords: number): { readonly maxBodyBytes: number; readonly json: JsonLimits } {
  return {
    maxBodyBytes: Math.max(1024 * 1024, 1024 * maxRecords),
    json: { ...JSON_LIMITS, maxValues: Math.max(JSON_LIMITS.maxValues, VALUES_PER_RECORD * maxRecords) },
  };
}

// JSON from a server is parsed only within bounds: a body nested thousands of levels deep would
// overflow every recursive walk after it, and one of countless values would cost memory and a
// schema error each. The bytes are measured before anything is decoded.
const [QUOTE, BACKSLASH, COMMA] = [34, 92, 44];
const OPEN = new Set([91, 123]);
const CLOSE = new Set([93, 125]);
const WHITESPACE = new Set([32, 9, 10, 13]);

/**
 * One pass over JSON text in UTF-8, without recursion: its values (containers and separators), the
 * first bound it passes, and, for a list, the items begun at its top level (a cut item counts).
 */
export function measureJson(bytes: Uint8Array, limits: JsonLimits = JSON_LIMITS): { readonly values: number; readonly excess?: string; readonly items?: number } {
  let [depth, values, ended, started, inString] = [0, 1, 0, false, false];
  let excess: string | undefined;
  let first = 0;
  while (first < bytes.length && WHITESPACE.has(bytes[first] ?? 0)) first++;
  for (let i = first; i < bytes.length; i++) {
    const c = bytes[i] ?? 0;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (depth === 1 && !started && !WHITESPACE.has(c) && c !== COMMA && !CLOSE.has(c)) started = true;
    if (c === QUOTE) inString = true;
    else if (OPEN.has(c)) {
      depth++;
      values++;
      if (depth > limits.maxDepth) excess ??= `nests deeper than ${limits.maxDepth} levels`;
    } else if (CLOSE.has(c)) depth--;
    else if (c === COMMA) {
      values++;
      if (depth === 1) [ended, started] = [ended + 1, false];
    }
    if (values > limits.maxValues) excess ??= `holds more than ${limits.maxValues} values`;
    if (depth === 0) break;
  }
  return { values, ...(excess ? { excess } : {}), ...(bytes[first] === 91 ? { items: ended + (started ? 1 : 0) } : {}) };
}

export interface TransportOptions {
  readonly baseUrl: string;
  /** Deadline of each request, whole: connecting, the headers and every byte of the body. */
  readonly timeoutMs?: number;
  /** Ends every request, the one in flight too (the run's own deadline). */
  readonly signal?: AbortSignal;
  /** Bodies beyond this many bytes are cut off unread, and deeper or larger ones not parsed (noted in `error`). */
  readonly maxBodyBytes?: number;
  readonly json?: JsonLimits;
}

/** Enough for 1,000 event log records; a run's memory is bounded by it (see README, Security). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Far more than a report shows of a body (its head, secrets masked) and than any error body needs. */
const TEXT_KEPT_BYTES = 64 * 1024;

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** undici's own waits, set to the same bound as the deadline: whichever ends first, it is the runner that gave up. */
const GAVE_UP = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Joins the base URL's path prefix (a server may live below `/`) and the operation path. */
export function urlFor(base: URL, path: string, query: Readonly<Record<string, string>> = {}): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/$/, '')}${path}`;
  url.search = new URLSearchParams(query).toString();
  return url;
}

export type Transport = ReturnType<typeof createTransport>;

export function createTransport(options: TransportOptions) {
  const baseUrl = new URL(options.baseUrl);
  // The document's paths start with /node/api; a base URL given with it (as the fake prints it) is the same server.
  baseUrl.pathname = baseUrl.pathname.replace(/\/node\/api\/?$/, '/');
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new Error(`The base URL must be http or https, not ${baseUrl.protocol}`);
  const timeout = options.timeoutMs ?? 10_000;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dispatcher = new Agent({ connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout });

  const run = options.signal;

  return {
    baseUrl,
    /** The exchange but its names, with the size of the parsed body in values (the run's memory budget), or whether the server could not be reached at all (refused, unknown host, connect timeout). */
    async send(
      // `path`: below the base URL's origin, e.g. `/node/api/event-log`.
      out: Pick<SentRequest, 'method' | 'body'> & { readonly path: string; readonly query?: Readonly<Record<string, string>>; readonly headers?: Readonly<Record<string, string>> },
    ): Promise<Pick<Exchange, 'request' | 'response' | 'error' | 'timedOutAfterMs'> & { values?: number; unreachable?: boolean }> {
      const url = urlFor(baseUrl, out.path, out.query);
      // Without Accept-Encoding any coding is acceptable (RFC 9110 12.5.3): a server could then
      // send gzip that the runner does not decode. Asking for identity makes a coded answer the server's fault.
      const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity', ...out.headers };
      const sent: SentRequest = { method: out.method, url: url.href, headers, ...(out.body === undefined ? {} : { body: out.body }) };
      if (run?.aborted) throw run.reason;
      // undici's own timeouts count each gap alone: a byte every few seconds would hold a request for ever.
      const deadline = AbortSignal.timeout(timeout);
      try {
        // undici's request() never follows redirects: a 3xx comes back as it is, so credentials never leave the base URL.
        const res = await request(url, {
          method: out.method as Dispatcher.HttpMethod,
          headers,
          body: out.body,
          dispatcher,
          headersTimeout: timeout,
          bodyTimeout: timeout,
          signal: run ? AbortSignal.any([run, deadline]) : deadline,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        let cut = false;
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > maxBody) {
            cut = true;
            res.body.destroy();
            break;
          }
          chunks.push(chunk as Buffer);
        }
        const bytes = Buffer.concat(chunks);
        // A cut body is no JSON; the rest is parsed within bounds of depth and size.
        const measured = measureJson(bytes, options.json ?? JSON_LIMITS);
        const error = cut ? `the body is larger than ${maxBody} bytes and was cut off` : measured.excess && `the body ${measured.excess}, beyond what the runner parses`;
        const text = error || bytes.length === 0 ? undefined : bytes.toString('utf8');
        let json: unknown;
        try {
          json = text === undefined ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        // Text that is not JSON is kept in part: reports show its head, no check reads more.
        const body = text !== undefined && json !== undefined ? text : bytes.subarray(0, TEXT_KEPT_BYTES).toString('utf8');
        // A list's items can be counted in what was read, parsed or not: enough to see a limit ignored.
        const items = error ? measured.items : undefined;
        return {
          request: sent,
          response: { status: res.statusCode, headers: res.headers as Record<string, string | string[]>, body, ...(json === undefined ? {} : { json }), ...(items === undefined ? {} : { itemsAtLeast: items }) },
          values: json === undefined ? 0 : measured.values,
          ...(error ? { error } : {}),
        };
      } catch (error) {
        if (run?.aborted) throw run.reason;
        const { code = (error as { cause?: { code?: string } }).cause?.code } = error as { code?: string };
        if (deadline.aborted || (code !== undefined && GAVE_UP.has(code))) {
          return { request: sent, error: `timed out: no complete answer within the request deadline of ${timeout} ms`, timedOutAfterMs: timeout };
        }
        const message = error instanceof Error ? error.message : String(error);
        return { request: sent, error: code ? `${code}: ${message}` : message, unreachable: code !== undefined && UNREACHABLE.has(code) };
      }
    },
    async close(): Promise<void> {
      // Every request has ended by now; destroy does not wait on sockets a hostile server holds open.
      await dispatcher.destroy();
    },
  };
}
