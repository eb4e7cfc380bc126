// A hostile server for the runner's tests: a node:http server on a free loopback port whose
// handler the test writes (echoes, endless 429s, trickled or missing answers, huge bodies).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { CheckFlags } from '../../../src/cli/check.js';
import { runCheck } from '../../../src/cli/check.js';

export interface HostileServer {
  readonly url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function hostileServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<HostileServer> {
  let count = 0;
  const server = createServer((req, res) => {
    count += 1;
    // A response that is never ended must not keep the test waiting on close.
    res.on('error', () => undefined);
    // Request bodies are read and dropped: a body left unread makes Node reset the connection once
    // the answer is sent, a transport error no test here is about.
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a byte every `everyMs` after the headers, for as long as the client listens. */
export function trickle(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const timer = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(timer));
}

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/**
 * Answers a log-in (POST /node/api/users/session: a session id and its cookie) and any DELETE
 * (204), as the tests of tokens need their server to; true when it answered.
 */
export function answersLogInOrOut(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  if (req.method === 'POST' && url.startsWith('/node/api/users/session')) {
    json(res, 200, '8a1f5e2c-0b4d-4e6a-9c3f-7d2e1b0a9f84', { 'set-cookie': 'sid=8a1f5e2c-0b4d-4e6a-9c3f-7d2e1b0a9f84; Path=/; HttpOnly' });
    return true;
  }
  if (req.method === 'DELETE') {
    res.writeHead(204).end();
    return true;
  }
  return false;
}

/** `monitoring-api-kit check` in this process, as the CLI runs it; stdout and stderr collected. */
export async function check(flags: Partial<CheckFlags> & { maxDuration?: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const all = { reporter: 'console', quiet: true, login: 'admin', password: 'admin-secret-pw', ...flags } as CheckFlags;
  const code = await runCheck(all, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
