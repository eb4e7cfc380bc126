import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { exchange } from '../helpers/raw-socket.js';
import { expectConforms, expectError, spec } from './helpers.js';

let fake: Fake;
let origin: string;
beforeAll(async () => {
  fake = await createFake({ spec, docs: false, records: 20 });
  ({ origin } = await fake.listen());
});
afterAll(() => fake.close());

const GET = 'GET /node/api/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\n';
const POST_LOGIN = 'POST /node/api/users/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';

/** Requests Node's HTTP parser (or Node itself) refuses before any route, and what the fake answers. */
const refused: { name: string; request: string; status: number; code: string; message?: string }[] = [
  { name: 'one header over the size limit', request: `${GET}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431, code: 'HEADERS_TOO_LARGE', message: "The request's headers are larger than 16384 bytes." },
  { name: 'thousands of small headers', request: `${GET}${Array.from({ length: 3000 }, (_, i) => `X-${i}: 1\r\n`).join('')}\r\n`, status: 431, code: 'HEADERS_TOO_LARGE' },
  { name: 'a space in a header name', request: `${GET}Bad Header: y\r\n\r\n`, status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'an invalid method', request: 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP/1.1 (Invalid method encountered).' },
  { name: 'an unknown HTTP version', request: 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'bare LF line ends', request: 'GET / HTTP/1.1\nHost: x\n\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'a NUL in the path', request: 'GET /\0 HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  {
    name: 'Content-Length with Transfer-Encoding (request smuggling)',
    request: `${POST_LOGIN}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    status: 400,
    code: 'MALFORMED_REQUEST',
  },
  { name: 'a bad chunk size', request: `${POST_LOGIN}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, status: 400, code: 'MALFORMED_REQUEST' },
  {
    name: 'an HTTP/1.1 request without Host',
    request: 'GET /node/api/users/current HTTP/1.1\r\n\r\n',
    status: 400,
    code: 'MALFORMED_REQUEST',
    // The document's text (x-messages of MALFORMED_REQUEST).
    message: 'An HTTP/1.1 request must have a Host header.',
  },
  {
    name: 'an Expect other than 100-continue',
    request: `${GET}Expect: teapot\r\nConnection: close\r\n\r\n`,
    status: 417,
    code: 'EXPECTATION_FAILED',
    message: 'Only "Expect: 100-continue" is supported, not "teapot".',
  },
  {
    name: 'CONNECT (the fake is no proxy)',
    request: 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n',
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    message: 'CONNECT is not allowed: the fake is not a proxy.',
  },
];

describe('requests refused before any route', () => {
  it.each(refused)('$name: $status $code with the Error body, and the connection closed', async ({ request, status, code, message }) => {
    const { answer, closedByServer } = await exchange(origin, request);
    expect(answer, 'an answer').toBeDefined();
    const body = expectError(answer as unknown as LightMyRequestResponse, status, code);
    if (message !== undefined) expect(body.message).toBe(message);
    expect(closedByServer).toBe(true);
  });

  it('HTTP/1.0 without Host is still served', async () => {
    const { answer } = await exchange(origin, 'GET /node/api/users/current HTTP/1.0\r\n\r\n');
    expectError(answer as unknown as LightMyRequestResponse, 401, 'UNAUTHENTICATED');
    expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
  });
});
