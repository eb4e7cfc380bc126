import { controlApiPath, journalLimits, readDocument, type Document } from '../spec/index.js';
import { formatCount, SERVE_ENV, type Flag } from './flag.js';
import { integer } from './flag-values.js';

let maxSize: number | undefined;
/** The most requests `--journal-size` may ask for: the control API document's `x-max-journal-size`, read when first needed. */
const maxJournalSize = (): number => (maxSize ??= journalLimits(readDocument(controlApiPath) as Document).maxSize);

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;

/** What the fake keeps and tells of the requests it answers: the journal and the request log. */
export const journalAndLogFlags = [
  {
    name: 'journalSize',
    flags: '--journal-size <n>',
    get description() {
      return `requests of \`/node/api\` kept for \`/__control/requests\` and the \`/__inspector\` page (up to ${formatCount(maxJournalSize())}; 0 switches the journal off)`;
    },
    env: `${SERVE_ENV}JOURNAL_SIZE`,
    parse: (value: string) => integer(0, maxJournalSize())(value),
    // Left to the fake, which reads it from the control API document.
    defaultDescription: "the control API document's `x-default-journal-size`",
  },
  {
    name: 'logLevel',
    flags: '--log-level <level>',
    description: `request log level: ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1)}`,
    env: `${SERVE_ENV}LOG_LEVEL`,
    choices: LOG_LEVELS,
    defaultValue: 'info',
  },
  {
    name: 'logFormat',
    flags: '--log-format <format>',
    description: '`pretty` (one line a person reads: method, path, status, ms, user), `json` (one JSON object a line), or `auto`: pretty when stdout is a terminal, json otherwise',
    env: `${SERVE_ENV}LOG_FORMAT`,
    choices: LOG_FORMATS,
    defaultValue: 'auto',
  },
] as const satisfies readonly Flag[];
