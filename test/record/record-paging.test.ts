// Paging while the log changes: records that arrive during the run, newer than its upper bound
// or late with old timestamps, never make a record of the start go missing or come twice; runs
// of equal timestamps longer than a page are taken whole; --max-records stops at the oldest N.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { EventLogRecordInput } from '../../src/spec/control-types.js';
import { readRecording, record, scratch } from './helpers.js';

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const mqtt = (n: number, timestamp?: number): EventLogRecordInput => ({
  type: 'mqtt-message',
  agentId: 'agent-late',
  ...(timestamp === undefined ? {} : { timestamp }),
  payload: { topic: `late/${n}`, message: String(n), qos: 0 },
  entity: { entityId: 'e-late', entityType: 2, entityName: 'late-sensor' },
});

describe('record while records arrive', () => {
  it('takes every record of the start once, and none that arrived after its bound', async () => {
    fake = await createFake({ seed: 11, records: 600 });
    const { baseUrl } = await fake.listen();
    const seed = (await fake.snapshot()).eventLog;
    const first = seed[0]!.timestamp;
    const last = seed[seed.length - 1]!.timestamp;
    // A run of 120 equal timestamps, longer than a page, in the middle of the log.
    const middle = seed[300]!.timestamp;
    await fake.addRecords(Array.from({ length: 120 }, (_, i) => mqtt(i, middle)));
    const atStart = (await fake.snapshot()).eventLog.map((r) => r._id);

    let arrivals = 0;
    fake.app.server.on('request', (request: { url?: string }) => {
      if (!request.url?.includes('/event-log?') || !request.url.includes('sortDirection=asc')) return;
      arrivals += 1;
      // One record now (after the run's bound), one late with an old timestamp, one in the run of ties.
      void fake!.addRecords([mqtt(1000 + arrivals), mqtt(2000 + arrivals, first + Math.floor(((last - first) * arrivals) / 20)), mqtt(3000 + arrivals, middle)]);
    });
    const out = join(scratch(), 'moving');
    const { code, stderr } = await record({ baseUrl, out, pageSize: 50 });
    expect(code, stderr).toBe(0);
    expect(arrivals).toBeGreaterThan(10);

    const ids = readRecording(out).events.map((r) => r._id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const recorded = new Set(ids);
    expect(atStart.filter((id) => !recorded.has(id))).toEqual([]);
    const now = (await fake.snapshot()).eventLog.filter((r) => r.timestamp > last);
    expect(now.length).toBe(arrivals);
    expect(now.filter((r) => recorded.has(r._id))).toEqual([]);
    const timestamps = readRecording(out).events.map((r) => r.timestamp as number);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
  }, 30_000);

  it('--max-records takes the oldest N and says the log was cut', async () => {
    fake = await createFake({ seed: 3, records: 300 });
    const { baseUrl } = await fake.listen();
    const all = (await fake.snapshot()).eventLog;
    const out = join(scratch(), 'cut');
    const { code, stdout, stderr } = await record({ baseUrl, out, pageSize: 50, maxRecords: 120 });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^Recorded 120 event log records/m);
    expect(stdout).toMatch(/^--max-records stopped the event log before its end/m);
    expect(stderr).toMatch(/^event log: stopped at --max-records 120; newer records were left out$/m);
    const recording = readRecording(out);
    expect(recording.events.map((r) => r._id)).toEqual(all.slice(0, 120).map((r) => r._id));
    expect(recording.manifest.maxRecordsReached).toBe(true);
  });

  it('an empty log makes an empty recording that says so', async () => {
    fake = await createFake({ records: 0, eventFixtures: [] });
    const { baseUrl } = await fake.listen();
    const out = join(scratch(), 'empty');
    const { code, stdout } = await record({ baseUrl, out });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Recorded 0 event log records, \d+ blocked requests/m);
    expect(readRecording(out).events).toEqual([]);
  });
});
