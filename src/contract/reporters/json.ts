// The run as JSON: settings, totals, outcomes with their failures (no exchanges, secrets masked).
import { statusOf } from '../run/results.js';
import type { Reporter, Write } from './reporter.js';

export function jsonReporter(write: Write): Reporter {
  return {
    onEvent() {},
    async finish(result) {
      const { exchanges: _left, outcomes, ...rest } = result;
      const report = { ...rest, outcomes: outcomes.map((o) => ({ ...o, status: statusOf(o) })) };
      write(`${JSON.stringify(report, null, 2)}\n`);
    },
  };
}
