// A small HTTP proxy in front of a real listening fake that breaks one thing: it may rewrite a
// request, answer in the fake's place, or rewrite the answer.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { request } from 'undici';

export interface ProxiedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

export interface Breakage {
  /** Rewrites the request, or answers it without the fake. */
  request?(req: ProxiedRequest): ProxiedRequest | ProxiedResponse;
  response?(req: ProxiedRequest, res: ProxiedResponse): ProxiedResponse;
  /** Gives the request no answer: never one (`hang`), or its connection destroyed (`reset`). */
  withhold?(req: ProxiedRequest): 'hang' | 'reset' | undefined;
}

export interface RunningProxy {
  readonly url: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export async function startBreakingProxy(target: string, breakage: Breakage): Promise<RunningProxy> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP.has(k)) headers[k] = v;
      let incoming: ProxiedRequest = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', target), headers, body: await readBody(req) };
      const withheld = breakage.withhold?.(incoming);
      if (withheld === 'reset') req.socket.destroy();
      if (withheld) return;
      let answer: ProxiedResponse;
      const rewritten = breakage.request ? breakage.request(incoming) : incoming;
      if ('status' in rewritten) {
        answer = rewritten;
      } else {
        incoming = rewritten;
        const forwarded = await request(incoming.url, {
          method: incoming.method as 'GET',
          headers: incoming.headers,
          body: incoming.body.length > 0 ? incoming.body : undefined,
        });
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(forwarded.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
        answer = { status: forwarded.statusCode, headers: out, body: await forwarded.body.text() };
        if (breakage.response) answer = breakage.response(incoming, answer);
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A JSON answer of the proxy's own. */
export function json(status: number, body: unknown): ProxiedResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: body === undefined ? '' : JSON.stringify(body) };
}
