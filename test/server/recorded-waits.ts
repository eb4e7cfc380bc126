import { buildFake, type FakeApp } from '../../src/server/build.js';
import type { FakeOptions } from '../../src/server/options.js';
import { spec } from './helpers.js';

/** A fake whose waits (latency, delays) are recorded instead of slept. */
export async function fakeRecordingWaits(options: FakeOptions = {}): Promise<{ app: FakeApp; waits: number[] }> {
  const waits: number[] = [];
  const app = await buildFake({ spec, docs: false, records: 20, sleep: async (ms) => void waits.push(ms), ...options });
  return { app, waits };
}
