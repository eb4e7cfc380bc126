// Every check by name. The runner applies the response checks to every exchange and the
// others to the exchanges whose step names them.
import type { Check } from '../types.js';
import { stateChecks } from '../model/state/state-checks.js';
import { authMethodAccepted } from './auth-method-accepted.js';
import { blockRecorded } from './block-recorded.js';
import { booleanFilter } from './boolean-filter.js';
import { caseExpectation } from './case-expectation.js';
import { contentType } from './content-type.js';
import { filterMatches } from './filter-matches.js';
import { invalidInputRefused } from './invalid-input-refused.js';
import { inverseOrder } from './inverse-order.js';
import { limitHonoured } from './limit-honoured.js';
import { noSensitiveData } from './no-sensitive-data.js';
import { notServerError } from './not-server-error.js';
import { pagesAgree } from './pages-agree.js';
import { permissionAccepted } from './permission-accepted.js';
import { permissionRefused } from './permission-refused.js';
import { prismViolations } from './prism-violations.js';
import { recordsConsistent } from './records-consistent.js';
import { responseSchema } from './response-schema.js';
import { sessionCookieAttributes } from './session-cookie-attributes.js';
import { sortOrder } from './sort-order.js';
import { statusDocumented } from './status-documented.js';
import { timeRange } from './time-range.js';
import { tokenIssuedNew } from './token-issued-new.js';
import { transportError } from './transport-error.js';
import { typeFilter } from './type-filter.js';
import { unauthenticatedRefused } from './unauthenticated-refused.js';
import { undeclaredSchemeRefused } from './undeclared-scheme-refused.js';
import { wrongCredentialsRefused } from './wrong-credentials-refused.js';

/** Applied to every exchange (of the operations a check names, when it names some). */
export const responseChecks = [transportError, notServerError, statusDocumented, contentType, responseSchema, noSensitiveData, tokenIssuedNew, sessionCookieAttributes] as const;
/** Applied to every exchange too when the run goes through `prism proxy`. */
export const prismResponseChecks = [...responseChecks, prismViolations] as const;

const all = [
  ...prismResponseChecks,
  unauthenticatedRefused,
  wrongCredentialsRefused,
  undeclaredSchemeRefused,
  authMethodAccepted,
  permissionRefused,
  permissionAccepted,
  recordsConsistent,
  limitHonoured,
  pagesAgree,
  sortOrder,
  inverseOrder,
  typeFilter,
  timeRange,
  filterMatches,
  invalidInputRefused,
  booleanFilter,
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
