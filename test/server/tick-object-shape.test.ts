import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The inline caches of `process.nextTick` after a full garbage collection at a moment when no
 * object `nextTick` made is alive, as V8 reports them (`%DebugPrint` of the function): the
 * states of its `DefineKeyedOwnPropertyInLiteral` slots, one for each property of those objects.
 */
async function nextTickCachesAfterQuietGc(makeFake: boolean): Promise<string[]> {
  const script = `
    if (${makeFake}) {
      const { createFake } = await import('monitoring-api-kit');
      globalThis.fake = await createFake({ records: 3, docs: false });
    }
    const ticks = (n) => new Promise((resolve) => { let left = n; const step = () => (--left === 0 ? resolve() : process.nextTick(step)); step(); });
    // Enough calls for V8 to record what nextTick makes, too few for it to optimize nextTick.
    await ticks(200);
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc(); gc();
    await ticks(2000);
    %DebugPrint(process.nextTick);
    if (globalThis.fake) await globalThis.fake.close();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--input-type=module', '-e', script], { cwd: root, maxBuffer: 1 << 24 });
  return [...stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

describe("the fake keeps process.nextTick's inline caches (tick-object-shape.ts)", () => {
  it('without the fake, a full collection in a quiet moment leaves them megamorphic (what the fake prevents)', async () => {
    expect(await nextTickCachesAfterQuietGc(false)).toContain('MEGAMORPHIC');
  });

  it('with a fake made, they stay monomorphic', async () => {
    const states = await nextTickCachesAfterQuietGc(true);
    expect(states).toHaveLength(4);
    expect(states.every((state) => state === 'MONOMORPHIC')).toBe(true);
  });
});
