// The rules a sequence of writes and reads is judged by. The state model (state-model.ts) decides
// what each step must answer; a check only turns its finding into a failure, reported on the
// operation whose effect was wrong (the write that set the expectation).
import { defineCheck, failure } from '../../checks/check.js';
import type { Citation } from '../../types.js';

/** What the model found wrong at a step. */
export interface Finding {
  readonly check: StateCheckName;
  /** The operation whose effect was wrong: the step that set the expectation. */
  readonly operationId: string;
  readonly message: string;
  readonly expected: string;
  readonly citation: Citation;
}

const judged = <const Name extends string>(name: Name, title: string) =>
  defineCheck({
    name,
    title,
    run(exchange, _context, facts: { readonly finding?: Finding }) {
      const found = facts.finding;
      return found ? [failure(this, exchange, { message: found.message, expected: found.expected, citation: found.citation })] : [];
    },
  });

export const tokenState = judged('token-state', 'An API token works until it is replaced or revoked, and the user record shows the current one');
export const sessionState = judged('session-state', 'A session cookie works until it is logged out');
export const payloadUpdatePersists = judged('payload-update-persists', "A payload update changes that record's text, nothing else, and persists");
export const mqttUpdateRefused = judged('mqtt-update-refused', 'A payload update of an MQTT record is refused');

export const stateChecks = [tokenState, sessionState, payloadUpdatePersists, mqttUpdateRefused] as const;
export type StateCheckName = (typeof stateChecks)[number]['name'];
