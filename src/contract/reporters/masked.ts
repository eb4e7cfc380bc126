// The one door every reporter goes through: each event and the result are handed on with every
// known secret masked in every string, so no reporter, present or future, can print one.
import type { Secrets } from '../secrets.js';
import type { Reporter } from './reporter.js';

export function maskedReporter(reporter: Reporter, secrets: Secrets): Reporter {
  return {
    onEvent: (event) => reporter.onEvent(secrets.maskDeep(event)),
    finish: (result) => reporter.finish(secrets.maskDeep(result)),
  };
}
