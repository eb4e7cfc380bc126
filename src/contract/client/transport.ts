// The only place the runner touches the network: one undici Agent, timeouts, no redirects followed.
import { Agent, type Dispatcher, request } from 'undici';
import type { ReceivedResponse, SentRequest } from '../types.js';

export interface TransportOptions {
  readonly baseUrl: string;
  /** Per request: connecting, waiting for headers, and between body chunks. */
  readonly timeoutMs?: number;
  /** For tests: an undici dispatcher to use instead of the runner's own Agent. */
  readonly dispatcher?: Dispatcher;
  /** Bodies beyond this many bytes are cut off (and the cut noted in `error`). */
  readonly maxBodyBytes?: number;
}

export interface OutgoingRequest {
  readonly method: string;
  /** A path below the base URL's origin, e.g. `/node/api/event-log`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface TransportResult {
  readonly request: SentRequest;
  readonly response?: ReceivedResponse;
  readonly error?: string;
  /** True when the server could not be reached at all (refused, unknown host, connect timeout). */
  readonly unreachable?: boolean;
}

export interface Transport {
  readonly baseUrl: URL;
  send(request: OutgoingRequest): Promise<TransportResult>;
  close(): Promise<void>;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code ?? e.cause?.code;
}

/** Joins the base URL's path prefix (a server may live below `/`) and the operation path. */
export function urlFor(base: URL, path: string, query: Readonly<Record<string, string>> = {}): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/$/, '')}${path}`;
  url.search = new URLSearchParams(query).toString();
  return url;
}

export function createTransport(options: TransportOptions): Transport {
  const baseUrl = new URL(options.baseUrl);
  // The document's paths start with /node/api; a base URL given with it (as the fake prints it) is the same server.
  baseUrl.pathname = baseUrl.pathname.replace(/\/node\/api\/?$/, '/');
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new Error(`The base URL must be http or https, not ${baseUrl.protocol}`);
  const timeout = options.timeoutMs ?? 10_000;
  const maxBody = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const own = options.dispatcher ? undefined : new Agent({ connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout });
  const dispatcher = options.dispatcher ?? own;

  return {
    baseUrl,
    async send(out) {
      const url = urlFor(baseUrl, out.path, out.query);
      const headers: Record<string, string> = { accept: 'application/json', ...out.headers };
      const sent: SentRequest = { method: out.method, url: url.href, headers, ...(out.body === undefined ? {} : { body: out.body }) };
      try {
        // undici's request() never follows redirects: a 3xx comes back as it is, so credentials never leave the base URL.
        const res = await request(url, {
          method: out.method as Dispatcher.HttpMethod,
          headers,
          body: out.body,
          dispatcher,
          headersTimeout: timeout,
          bodyTimeout: timeout,
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
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = body.length > 0 ? JSON.parse(body) : undefined;
        } catch {
          json = undefined;
        }
        const responseHeaders: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders[k.toLowerCase()] = v;
        return {
          request: sent,
          response: { status: res.statusCode, headers: responseHeaders, body, ...(json === undefined ? {} : { json }) },
          ...(cut ? { error: `the body is larger than ${maxBody} bytes and was cut off` } : {}),
        };
      } catch (error) {
        const code = errorCode(error);
        const message = error instanceof Error ? error.message : String(error);
        return { request: sent, error: code ? `${code}: ${message}` : message, unreachable: code !== undefined && UNREACHABLE.has(code) };
      }
    },
    async close() {
      await own?.close();
    },
  };
}
