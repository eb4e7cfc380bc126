import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainRefusedBody, DRAIN_LIMIT_BYTES } from '../../src/server/error-answers.js';
import { streamingUpload } from '../helpers/streaming-upload.js';

// The race only shows across processes: the fake answers a refused body and closes the
// connection while the client, in another process, is still writing.
const bin = fileURLToPath(new URL('../../bin/monitoring-api-kit.js', import.meta.url));
let child: ChildProcess;
let origin = '';

beforeAll(async () => {
  child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}, 30_000);
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('a body over the limit, over a real connection', () => {
  it('reaches the client as 413 although it was still writing', async () => {
    const body = Buffer.from(JSON.stringify({ login: 'admin', password: 'x'.repeat(1024 * 1024) }));
    expect(body.length).toBeLessThan(DRAIN_LIMIT_BYTES);
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const answer = await streamingUpload(`${origin}/node/api/users/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      answers.push(answer.error ?? answer.status);
    }
    expect(answers).toEqual([413, 413, 413, 413, 413]);
  });

  it('the server still answers afterwards', async () => {
    const response = await fetch(`${origin}/node/api/users/current`, { headers: { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` } });
    expect(response.status).toBe(200);
  });
});

describe('drainRefusedBody', () => {
  it('does not wait for a body larger than the drain limit', async () => {
    const raw = { headers: { 'content-length': String(DRAIN_LIMIT_BYTES + 1) }, readableEnded: false, destroyed: false };
    await expect(drainRefusedBody({ raw } as never)).resolves.toBeUndefined();
  });
});
