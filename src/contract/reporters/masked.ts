// The one door every reporter goes through: each event and the result are handed on with every
// known secret masked and every control character shown as its escape, in every string, so no
// reporter, present or future, can print a secret or let a server's text act on a terminal.
import { terminalText } from '../../shared/escape.js';
import { mapStrings } from '../../shared/redaction/secret-fields.js';
import type { Secrets } from '../../shared/redaction/secret-values.js';
import type { Reporter } from './reporter.js';

/** A text as the reports and the command's output show it: every known secret masked, then every control character escaped. */
export const shownText =
  (secrets: Pick<Secrets, 'mask'>) =>
  (text: string): string =>
    terminalText(secrets.mask(text));

export function maskedReporter(reporter: Reporter, secrets: Secrets): Reporter {
  const text = shownText(secrets);
  const shown = <T>(value: T): T => mapStrings(value, text) as T;
  return {
    onEvent: (event) => reporter.onEvent(shown(event)),
    finish: (result) => reporter.finish(shown(result)),
  };
}
