import type { Filter } from './filter-check.js';
import { linearRegex } from './linear-regex.js';

/**
 * The cost of testing one record: the number of keys (fields and operators) in the filter,
 * and for each `$regex` one more for every `regexInstructionsPerCondition` instructions of
 * its compiled program (matching costs grow with the program).
 */
export function filterCost(filter: Filter, regexInstructionsPerCondition: number): number {
  let keys = 0;
  const stack: unknown[] = [filter];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (!Array.isArray(v)) {
      keys += Object.keys(v).length;
      keys += Math.ceil(regexInstructions(v as Record<string, unknown>) / regexInstructionsPerCondition);
    }
    stack.push(...(Array.isArray(v) ? v : Object.values(v)));
  }
  return Math.max(1, keys);
}

/** The program size of the `$regex` of an operator object (0 when it has none or it does not compile). */
function regexInstructions(ops: Record<string, unknown>): number {
  const pattern = ops.$regex;
  const options = ops.$options ?? '';
  if (typeof pattern !== 'string' || typeof options !== 'string') return 0;
  try {
    const { source, flags } = new RegExp(pattern, options);
    const compiled = linearRegex(source, flags);
    return compiled.ok ? compiled.regex.programSize : 0;
  } catch {
    return 0;
  }
}
