import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin } from '../helpers/run-bin.js';

const [trap] = JSON.parse(await readFile(new URL('../../fixtures/events.json', import.meta.url), 'utf8')) as Record<string, any>[];

/** Waits until `done` holds (checked every 50 ms), at most 10 s. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}

describe('serve --watch', () => {
  it('reloads an edited fixture file, and logs every problem of an invalid edit while keeping the old data', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'serve-watch-'));
    const events = join(dir, 'events.json');
    const edition = (text: string) => JSON.stringify([{ ...trap, _id: undefined, payload: { ...trap!.payload, text } }]);
    await writeFile(events, edition('first edition'));
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--records', '0', '--fixture', events, '--watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await until(() => /listening on http:\/\/\S+/.test(out) && out.includes('Try: '));
      expect(out).toContain('Watching:');
      const origin = /listening on (http:\/\/\S+)/.exec(out)![1];
      const texts = async () => {
        const response = await fetch(`${origin}/node/api/event-log?type=1&limit=100`, { headers: { authorization: `Basic ${btoa('admin:admin-password')}` } });
        const body = (await response.json()) as { payload: { text: string } }[];
        if (!Array.isArray(body)) throw new Error(JSON.stringify(body));
        return body.map((r) => r.payload.text);
      };
      expect(await texts()).toContain('first edition');
      await writeFile(events, edition('second edition'));
      await until(async () => (await texts()).includes('second edition'));
      await writeFile(events, JSON.stringify([{ ...trap, _id: 'x', entity: {} }]));
      await until(() => out.includes('fixture files not reloaded'));
      expect(out).toContain('record 0 (_id \\"x\\"): field /_id must match pattern');
      expect(out).toContain('field /entity/entityId is required');
      expect(await texts()).toContain('second edition');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});
