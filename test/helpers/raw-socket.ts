import { connect, type Socket } from 'node:net';
import type { RawAnswer } from './raw-http.js';

/** Opens a TCP connection to the origin's host and port. */
export function openSocket(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The first HTTP answer in raw bytes (Content-Length or chunked body), or undefined when there is none. */
export function parseAnswer(raw: Buffer): RawAnswer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const statusCode = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = raw.subarray(end + 4);
  let body: Buffer = Buffer.alloc(0);
  if (headers['transfer-encoding'] === 'chunked') {
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (!(size > 0)) break;
      body = Buffer.concat([body, rest.subarray(lineEnd + 2, lineEnd + 2 + size)]);
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
  } else {
    body = rest.subarray(0, Number(headers['content-length'] ?? rest.length));
  }
  return { statusCode, headers, body: body.toString('utf8') };
}

/**
 * Sends raw bytes on a fresh connection and reads until the server closes it (or `waitMs`
 * passes): for requests Node's parser refuses, which are answered and then closed.
 */
export async function exchange(origin: string, data: string | Buffer, waitMs = 5000): Promise<{ answer: RawAnswer | undefined; closedByServer: boolean }> {
  const socket = await openSocket(origin);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  socket.write(data);
  const closedByServer = await closed;
  socket.destroy();
  return { answer: parseAnswer(Buffer.concat(chunks)), closedByServer };
}
