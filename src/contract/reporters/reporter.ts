// Reporters listen to a run's events and write what they saw, each through the one masked door.
import { type RunEvent, type RunResult, statusOf } from '../run/results.js';
import { terminalText } from '../../shared/escape.js';
import { mapStrings, type Secrets } from '../../shared/redaction/secret-values.js';
import { quote } from '../curl.js';

export interface Reporter {
  onEvent(event: RunEvent): void;
  /** Writes the report; resolves when it is written. */
  finish(result: RunResult): Promise<void>;
}

export type Write = (text: string) => void;

/** A text as the reports and the command's output show it: every known secret masked, then every control character escaped. */
export const shownText =
  (secrets: Pick<Secrets, 'mask'>) =>
  (text: string): string =>
    terminalText(secrets.mask(text));

// The one door every reporter goes through: every string of each event and of the result has the
// known secrets masked and control characters escaped, so no reporter can print a secret or let a
// server's text act on a terminal.
export function maskedReporter(reporter: Reporter, secrets: Secrets): Reporter {
  const text = shownText(secrets);
  const shown = <T>(value: T): T => mapStrings(value, text) as T;
  return {
    onEvent: (event) => reporter.onEvent(shown(event)),
    finish: (result) => reporter.finish(shown(result)),
  };
}

/** A reporter that writes the whole report, one text, when the run ends. */
export const reportAtEnd =
  (render: (result: RunResult) => string) =>
  (write: Write): Reporter => ({ onEvent() {}, finish: async (result) => write(render(result)) });

export const jsonReporter = reportAtEnd(({ exchanges: _left, outcomes, ...rest }) => {
  const report = { ...rest, outcomes: outcomes.map((o) => ({ ...o, status: statusOf(o) })) };
  return `${JSON.stringify(report, null, 2)}\n`;
});

// A curl line a person reads: a long body cut to its head, with its size. Reporters get text already
// masked (maskedReporter), so a cut never leaves part of a secret a whole text would have hidden.
const BODY = / --data-raw '((?:[^']|'\\'')*)'$/;
const HEAD = 160;

export function shortCurl(curl: string): string {
  const match = BODY.exec(curl);
  if (!match) return curl;
  const body = match[1]!.replaceAll(`'\\''`, "'");
  if (body.length <= HEAD * 2) return curl;
  const head = /[\ud800-\udbff]$/.test(body.slice(0, HEAD)) ? body.slice(0, HEAD - 1) : body.slice(0, HEAD);
  return `${curl.slice(0, match.index)} --data-raw ${quote(`${head}…`)} (body of ${Buffer.byteLength(body).toLocaleString('en-US')} bytes, shortened)`;
}
