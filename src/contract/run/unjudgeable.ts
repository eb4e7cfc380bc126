// What a check cannot judge of an exchange, said instead of `ok`. Without an answer only
// transport-error judges. An answer whose body the runner did not read whole (past its body
// limit) or did not parse (past its bounds of depth and size) is the server's answer all the
// same: its status is judged, its body is not, and the runner's own bounds are no finding.
import { inconclusive } from '../checks/check.js';
import { noAnswer, transportError } from '../checks/response-checks.js';
import type { Applied, Exchange, Inconclusive } from '../types.js';

export function unjudgeable(exchange: Exchange, check: Applied): Inconclusive | undefined {
  if (!exchange.response) return check.name === transportError.name ? undefined : inconclusive(noAnswer(exchange));
  if (exchange.error && !check.judgesUnreadBody) return inconclusive(`the body was not judged: ${exchange.error}`);
  return undefined;
}
