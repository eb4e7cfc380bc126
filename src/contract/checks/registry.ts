// Every check by name. The runner applies the response checks to every exchange and the
// others to the exchanges whose step names them.
import type { Check } from '../types.js';
import { stateChecks } from '../model/state/state-model.js';
import { authMethodAccepted, permissionAccepted, permissionRefused, unauthenticatedRefused, undeclaredSchemeRefused, wrongCredentialsRefused } from './access-checks.js';
import { blockRecorded, caseExpectation, invalidInputRefused } from './step-checks.js';
import { contentType, notServerError, sessionCookieAttributes, statusDocumented, tokenIssuedNew, transportError } from './response-checks.js';
import { modelChecks } from './model-checks.js';
import { noSensitiveData } from './no-sensitive-data.js';
import { responseSchema } from './response-schema.js';

/** Applied to every exchange (of the operations a check names, when it names some). */
export const responseChecks = [transportError, notServerError, statusDocumented, contentType, responseSchema, noSensitiveData, tokenIssuedNew, sessionCookieAttributes] as const;

const all = [
  ...responseChecks,
  unauthenticatedRefused,
  wrongCredentialsRefused,
  undeclaredSchemeRefused,
  authMethodAccepted,
  permissionRefused,
  permissionAccepted,
  ...modelChecks,
  invalidInputRefused,
  ...stateChecks,
  blockRecorded,
  caseExpectation,
] as const;

/** The name of every registered check: a misspelt name is a type error. */
export type CheckName = (typeof all)[number]['name'];
/** A step of a contract case is reported as `case/<case name>`, judged by case-expectation. */
export type CaseCheckName = `case/${string}`;
/** What an outcome is named by: a check, or a contract case. */
export type OutcomeCheckName = CheckName | CaseCheckName;

/** A check of any facts, as the registry lists them. */
export type AnyCheck = Check<string, never>;

const byName = new Map<string, AnyCheck>(all.map((c) => [c.name, c]));

export function getCheck(name: CheckName): AnyCheck {
  const check = byName.get(name);
  if (!check) throw new Error(`No check is registered as "${name}".`);
  return check;
}

export const isCaseCheck = (name: string): name is CaseCheckName => name.startsWith('case/');

/** The title an outcome shows: its check's, or case-expectation's for a contract case. */
export function titleOf(name: OutcomeCheckName): string {
  return isCaseCheck(name) ? caseExpectation.title : getCheck(name).title;
}

export function allChecks(): readonly AnyCheck[] {
  return all;
}
