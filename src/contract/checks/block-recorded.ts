import { failure, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';
import { defineCheck } from './define.js';

// The clocks of the runner and the server may differ a little.
const SKEW_MS = 60_000;

export interface BlockRecordedFacts {
  /** When the probe began (ms since the epoch, the runner's clock). */
  readonly since: number;
  /** The path the probe hammered. */
  readonly uri: string;
  /** The login that took the block. */
  readonly login?: string;
}

/**
 * After a limit blocked the prober, the limit-block log lists the block (spec 8: each block is
 * recorded and listed by 4.6).
 */
export const blockRecorded = defineCheck({
  name: 'block-recorded',
  title: 'A block by a limit is recorded in the limit-block log',
  run(exchange, context, facts: BlockRecordedFacts) {
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const since = facts.since - SKEW_MS;
    const { uri, login } = facts;
    const found = records.some((r) => {
      const recent = typeof r.timestamp !== 'number' || r.timestamp >= since;
      const names = (typeof r.uri === 'string' && r.uri.startsWith(uri)) || (login !== undefined && r.login === login) || typeof r.ip === 'string';
      return recent && names;
    });
    if (found) return [];
    return [
      failure(this, exchange, {
        message: `no block recorded since the probe began (${records.length} records in the log)`,
        expected: `a record naming the URI ${uri}, the login or the IP address`,
        citation: { source: 'spec', ref: '8', text: 'The REST server blocks requests that exceed its limits. Each block is recorded and listed by 4.6.' },
      }),
    ];
  },
});
