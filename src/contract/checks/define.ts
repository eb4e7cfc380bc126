// How a check is written and how a plan hands it the facts of a step, both typed: a check's
// name is a literal (the registry's CheckName is their union) and its facts are its own type.
import type { Applied, Check } from '../types.js';

/** Declares a check; its name stays a literal type and its facts type is the `run` parameter's. */
export function defineCheck<const Name extends string, Facts = void>(check: Check<Name, Facts>): Check<Name, Facts> {
  return check;
}

/** A check with the facts of one step (none for checks that take none). */
export function apply<Facts>(check: Check<string, Facts>, ...facts: Facts extends void ? [] : [Facts]): Applied {
  const given = facts[0] as Facts;
  return { name: check.name, title: check.title, ...(check.judgesUnreadBody ? { judgesUnreadBody: true } : {}), ...(check.operations ? { operations: check.operations } : {}), judge: (exchange, context) => check.run(exchange, context, given) };
}
