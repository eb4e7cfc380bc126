// Measures generating, storing and querying a million event log records (run by hand:
// `node --expose-gc --import tsx bench/seed-million.ts [count]`); never part of npm test.
import { generateEvents } from '../src/seed/generate-events.js';
import { EventLogStore } from '../src/store/event-log.js';
import { filterLimits, loadSpec } from '../src/spec/index.js';
import { eventLogQuery } from '../src/server/handlers.js';
import type { EventLogQueryParams } from '../src/spec/types.js';

const count = Number(process.argv[2] ?? 1_000_000);
const limits = filterLimits((await loadSpec()).document);
if (!limits) throw new Error('The document states no x-filter-limits.');
const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return Math.round(process.memoryUsage().heapUsed / 2 ** 20);
};
// Wall time, and the process's computing time (user + system), which a machine busy with other
// processes inflates far less.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const time = <T>(label: string, fn: () => T, runs = 1): T => {
  let result: T | undefined;
  const [t0, c0] = [performance.now(), cpuMs()];
  for (let i = 0; i < runs; i++) result = fn();
  const digits = runs > 1 ? 3 : 0;
  console.log(`${label}: ${((performance.now() - t0) / runs).toFixed(digits)} ms, CPU ${((cpuMs() - c0) / runs).toFixed(digits)} ms${runs > 1 ? ` (mean of ${runs})` : ''}`);
  return result as T;
};

const before = heapMb();
const records = time(`generate ${count}`, () => generateEvents({ count }));
console.log(`heap after generating: +${heapMb() - before} MB`);
const store = time('build store', () => new EventLogStore(records, { adopt: true }));
console.log(`heap with store: +${heapMb() - before} MB`);

const first = records[0]?.timestamp ?? 0;
const last = records[records.length - 1]?.timestamp ?? 0;
const mid = Math.floor((first + last) / 2);
const run = (label: string, params: EventLogQueryParams, runs = 200) => {
  const parsed = eventLogQuery(params, limits);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const n = time(label, () => store.query(parsed.query).length, runs);
  console.log(`  -> ${n} records`);
};
run('newest 50', { limit: '50', sortDirection: 'desc' });
run('oldest 50 of a time range', { from: mid, to: last, limit: '50' });
run('newest 50 traps of a range, inverse', { type: '1', from: first, to: mid, limit: '50', inverse: true });
run('page 1000 of MQTT (skip 50000)', { type: '2', skip: '50000', limit: '50' });
run('filter linkDown, newest 50', { filter: '{"payload.trapOid":"1.3.6.1.6.3.1.1.5.3"}', limit: '50', sortDirection: 'desc' });
run('filter rare (entityName of one port), 50', { filter: '{"entity.entityName":"core-sw-01 TenGigabitEthernet1/0/3","payload.trapOid":"1.3.6.1.6.3.1.1.5.3"}', limit: '50' }, 3);
run('regex on text over all, 50', { filter: '{"payload.text":{"$regex":"^linkDown.*core-sw-0[12]"}}', limit: '50', skip: '10000' }, 3);
run('regex "down", 50', { filter: '{"payload.text":{"$regex":"down"}}', limit: '50' }, 20);
run('regex anywhere, no match (full scan)', { filter: '{"payload.text":{"$regex":"no such text"}}', limit: '50' }, 5);
run('payload filter, no match (full scan)', { filter: '{"payload.senderAddress":"10.9.9.9"}', limit: '50' }, 5);
run('sort by entity.entityName, 50', { sortField: 'entity.entityName', limit: '50' }, 2);
run('all MQTT records (no limit)', { type: '2' }, 3);
time('updatePayload', () => store.updatePayload(records[500_000 % count]?._id ?? '', { text: 'ack' }), 1000);
time('reset', () => store.reset(), 2);
