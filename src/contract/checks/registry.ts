// Every check by name. The runner applies the response checks to every exchange and the
// others to the exchanges whose step names them.
import { stateChecks } from '../model/state/state-model.js';
import { authMethodAccepted, permissionAccepted, permissionRefused, unauthenticatedRefused, undeclaredSchemeRefused, wrongCredentialsRefused } from './access-checks.js';
import { blockRecorded, caseExpectation, invalidInputRefused } from './step-checks.js';
import { contentType, notServerError, sessionCookieAttributes, statusDocumented, tokenIssuedNew, transportError } from './response-checks.js';
import { modelChecks } from './model-checks.js';
import { noSensitiveData } from './no-sensitive-data.js';
import { responseSchema } from './response-schema.js';

/** Applied to every exchange (of the operations a check names, when it names some). */
export const responseChecks = [transportError, notServerError, statusDocumented, contentType, responseSchema, noSensitiveData, tokenIssuedNew, sessionCookieAttributes] as const;

export const allChecks = [
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
export type CheckName = (typeof allChecks)[number]['name'];
/** A step of a contract case is reported as `case/<case name>`, judged by case-expectation. */
export type CaseCheckName = `case/${string}`;
/** What an outcome is named by: a check, or a contract case. */
export type OutcomeCheckName = CheckName | CaseCheckName;

/** The title an outcome shows: its check's, or case-expectation's for a contract case. */
export const titleOf = (name: OutcomeCheckName): string => allChecks.find((c) => c.name === name)?.title ?? caseExpectation.title;
