import { request as httpRequest } from 'node:http';

/** An answer read over HTTP, in the shape the conformance checks take (like inject's). */
export interface RawAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One request over a real connection with the path and headers exactly as given: no URL
 * normalisation (percent-escapes stay as written) and a Host header of the caller's choice.
 */
export function rawRequest(
  origin: string,
  init: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname.replace(/^\[|\]$/g, ''),
        port,
        method: init.method ?? 'GET',
        path: init.path,
        headers: { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
