import { DEFAULT_EVENT_COUNT, DEFAULT_SEED } from '../seed/generate-events.js';
import { formatCount, SERVE_ENV, type Flag } from './flag.js';
import { anchorFlag, integer, list, yesNo } from './flag-values.js';

const MAX_RECORDS = 2_000_000;

/** The data `serve` starts with: generated, from fixture files or a recording, and its timeline. */
export const dataFlags = [
  { name: 'seed', flags: '--seed <n>', description: 'seed of the generated data: the same seed gives the same data', env: `${SERVE_ENV}SEED`, parse: integer(0, 2 ** 31 - 1), defaultValue: DEFAULT_SEED },
  {
    name: 'records',
    flags: '--records <n>',
    description: `generated event log records (up to ${formatCount(MAX_RECORDS)})`,
    env: `${SERVE_ENV}RECORDS`,
    parse: integer(0, MAX_RECORDS),
    defaultDescription: `${DEFAULT_EVENT_COUNT} (0 with \`--recording\`)`,
  },
  {
    name: 'fixture',
    flags: '--fixture <file>',
    description: 'extra records (a JSON array), added to `fixtures/events.json` (or to the recording); repeatable or comma-separated',
    env: `${SERVE_ENV}FIXTURES`,
    parse: list,
    defaultValue: [],
    defaultDescription: 'none',
  },
  {
    name: 'recording',
    flags: '--recording <dir>',
    description:
      'serve a recording (`monitoring-api-kit record --out`): its event log, block log and user, instead of the generated data and `fixtures/events.json`',
    env: `${SERVE_ENV}RECORDING`,
    defaultDescription: 'none',
  },
  {
    name: 'anchor',
    flags: '--anchor <time>',
    description: "move the data's timeline, offsets kept, so that its newest record is at this instant: `now`, an ISO date-time or epoch ms",
    env: `${SERVE_ENV}ANCHOR`,
    parse: anchorFlag,
    defaultDescription: 'now (the start); with `--recording`: the recorded times',
  },
  { name: 'users', flags: '--users <file>', description: 'users fixture (JSON)', env: `${SERVE_ENV}USERS`, defaultDescription: "fixtures/users.json, or the recording's" },
  {
    name: 'watch',
    flags: '--watch [yes|no]',
    description: 'reload the users file and the fixture files when they change, without a restart (sessions stay; a file with problems keeps the old data, and every problem is logged)',
    env: `${SERVE_ENV}WATCH`,
    parse: yesNo,
    defaultValue: false,
    defaultDescription: 'no',
  },
] as const satisfies readonly Flag[];
