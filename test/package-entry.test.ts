import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, { types: string; import: string }>; types: string };

describe("the package entry, as consumers import it ('monitoring-api-kit')", () => {
  it('points at the bundle of src/index.ts and its declarations', () => {
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/bin/index.js' });
    expect(pkg.types).toBe('./dist/index.d.ts');
  });

  it('runs from dist/ without tsx: createFake answers with the seeded users', async () => {
    expect(existsSync(`${root}dist/bin/index.js`), 'dist/ is missing: run `npm run build` (npm ci runs it through prepare)').toBe(true);
    const script = `
      const { createFake } = await import('monitoring-api-kit');
      const fake = await createFake({ records: 3, docs: false });
      const response = await fake.inject({ url: '/node/api/users/current', headers: { authorization: 'Basic ' + Buffer.from('viewer:viewer-password').toString('base64') } });
      console.log(JSON.stringify({ status: response.statusCode, login: JSON.parse(response.body).login, users: Object.keys(fake.users) }));
      await fake.close();`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({ status: 200, login: 'viewer', users: ['admin', 'operator', 'viewer'] });
  });
});
