// A check judged against the model of a list operation: it reports the faults of its own rule
// (model/faults.ts finds them all once per answer).
import { faultsOf, type ModelFacts } from '../model/faults.js';
import type { ModelCheckName } from '../model/list-rules.js';
import type { Check } from '../types.js';
import { defineCheck } from './define.js';
import { failure, isInconclusive } from './failure.js';

export function defineModelCheck<const Name extends ModelCheckName>(name: Name, title: string, options: { judgesUnreadBody?: true } = {}): Check<Name, ModelFacts> {
  return defineCheck({
    name,
    title,
    ...options,
    run(exchange, context, facts: ModelFacts) {
      const judged = faultsOf(context.spec.operation(exchange.operationId), exchange, facts);
      if (isInconclusive(judged)) return judged;
      return judged
        .filter((f) => f.check === name)
        .map((f) => failure(this, exchange, { ...f, message: facts.found ? `${f.message} (${facts.found})` : f.message }));
    },
  });
}
