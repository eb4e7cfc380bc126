import type { FilterLimits } from '../spec/filter-limits.js';
import { linearRegex } from './linear-regex.js';

/**
 * The check of a `$regex` from a filter. Regexes are matched by a linear-time engine (see
 * linear-regex.ts), so no pattern can backtrack; what is bounded here is the pattern's size
 * and what that engine cannot match with JavaScript's meaning.
 */

/** Flags accepted in `$options`: those MongoDB and JavaScript share and that keep `exec` stateless. */
export const REGEX_OPTIONS = 'imsu';

type RegexLimits = Pick<FilterLimits, 'maxRegexLength' | 'maxRegexProgram'>;

/** Why a pattern is refused, or undefined when it is accepted. Never throws. */
export function regexProblem(pattern: string, options: string, limits: RegexLimits): string | undefined {
  if (pattern.length > limits.maxRegexLength) {
    return `regex is longer than ${limits.maxRegexLength} characters`;
  }
  const optionsProblem = regexOptionsProblem(options);
  if (optionsProblem) return optionsProblem;
  let regex: RegExp;
  try {
    // Only parses the pattern: JavaScript compiles it on first use, which never comes.
    regex = new RegExp(pattern, options);
  } catch (e) {
    return `regex is invalid: ${(e as Error).message}`;
  }
  const compiled = linearRegex(regex.source, regex.flags);
  if (!compiled.ok) return `regex ${compiled.problem}`;
  if (compiled.regex.programSize > limits.maxRegexProgram) {
    return `regex is too complex: it compiles to ${compiled.regex.programSize} instructions, more than ${limits.maxRegexProgram} (large repetition counts multiply)`;
  }
  return undefined;
}

export function regexOptionsProblem(options: string): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const flag = options[i] as string;
    if (!REGEX_OPTIONS.includes(flag)) return `$options may hold only the flags ${REGEX_OPTIONS.split('').join(', ')}, not "${flag}"`;
    if (options.indexOf(flag) !== i) return `$options repeats the flag "${flag}"`;
  }
  return undefined;
}
