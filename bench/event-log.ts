// `npm run bench:event-log`: the event log's floor alone (the scale section of `npm run bench`
// at one size): the fake from dist/ with 1,000,000 records, a time-range page and filters that
// scan every record, p50 against the targets. Never run by npm test.
// Options: --records 1000000  --latency-runs 50
import { parseArgs } from 'node:util';
import { describeMachine, loadAverage } from './lib/machine.js';
import { evaluateTargets, renderMarkdown } from './lib/report.js';
import { buildDist } from './lib/servers.js';
import { runScale } from './sections/scale.js';

const { values } = parseArgs({ options: { records: { type: 'string', default: '1000000' }, 'latency-runs': { type: 'string', default: '50' } } });
const log = (line: string) => console.error(`[bench] ${line}`);
log('building dist/ (npm run build)');
buildDist();
const startedAt = new Date().toISOString();
const start = loadAverage();
const scale = await runScale({ sizes: [Number(values.records)], runs: Number(values['latency-runs']), log });
const done = {
  command: `npm run bench:event-log${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  startedAt,
  finishedAt: new Date().toISOString(),
  machine: describeMachine(),
  loadAverage: { start, end: loadAverage() },
  scale,
};
console.log(renderMarkdown({ ...done, targets: evaluateTargets(done) }));
