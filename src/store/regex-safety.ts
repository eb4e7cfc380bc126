/**
 * A structural check of regular expressions from a filter, so that no request can stall the
 * server with catastrophic backtracking. It is deliberately conservative: it refuses a
 * repeated group that holds a quantifier or an alternation (`(a+)+`, `(a|a)*`, `(\w+\.)+`),
 * backreferences, and more than a few unbounded repetitions (`.*a.*b.*c.*d` is polynomial).
 */

export const REGEX_LIMITS = {
  /** Longest pattern accepted, in characters. */
  maxLength: 200,
  /** Most unbounded repetitions (`*`, `+`, `{n,}`) in one pattern. */
  maxUnboundedRepetitions: 3,
} as const;

/** Flags accepted in `$options`: those MongoDB and JavaScript share and that keep `exec` stateless. */
export const REGEX_OPTIONS = 'imsu';

interface Group {
  /** Holds a repetition (max > 1) or an alternation somewhere inside. */
  risky: boolean;
}

interface Atom {
  /** The atom just read is a group whose inside is risky. */
  riskyGroup: boolean;
}

/** Why a pattern is refused, or undefined when it is accepted. Never throws. */
export function regexProblem(pattern: string, options = ''): string | undefined {
  if (pattern.length > REGEX_LIMITS.maxLength) {
    return `regex is longer than ${REGEX_LIMITS.maxLength} characters`;
  }
  const optionsProblem = regexOptionsProblem(options);
  if (optionsProblem) return optionsProblem;
  try {
    new RegExp(pattern, options);
  } catch (e) {
    return `regex is invalid: ${(e as Error).message}`;
  }
  return structureProblem(pattern);
}

export function regexOptionsProblem(options: string): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const flag = options[i] as string;
    if (!REGEX_OPTIONS.includes(flag)) return `$options may hold only the flags ${REGEX_OPTIONS.split('').join(', ')}, not "${flag}"`;
    if (options.indexOf(flag) !== i) return `$options repeats the flag "${flag}"`;
  }
  return undefined;
}

const BACKTRACK = 'regex may backtrack catastrophically:';

function structureProblem(p: string): string | undefined {
  const stack: Group[] = [{ risky: false }];
  let last: Atom | undefined;
  let unbounded = 0;
  let i = 0;
  const top = (): Group => stack[stack.length - 1] as Group;
  while (i < p.length) {
    const c = p[i] as string;
    if (c === '\\') {
      const next = p[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && p[i + 2] === '<')) return 'regex backreferences are not allowed';
      // \p{...}, \u{...} and \x.. are single atoms; skip their braces.
      if ((next === 'p' || next === 'P' || next === 'u') && p[i + 2] === '{') {
        const end = p.indexOf('}', i + 3);
        i = end === -1 ? p.length : end + 1;
      } else {
        i += 2;
      }
      last = { riskyGroup: false };
      continue;
    }
    if (c === '[') {
      i = endOfClass(p, i + 1);
      last = { riskyGroup: false };
      continue;
    }
    if (c === '(') {
      stack.push({ risky: false });
      i += 1;
      if (p[i] === '?') {
        // (?:  (?=  (?!  (?<=  (?<!  (?<name>
        if (p[i + 1] === '<' && p[i + 2] !== '=' && p[i + 2] !== '!') {
          const end = p.indexOf('>', i);
          i = end === -1 ? p.length : end + 1;
        } else {
          i += p[i + 1] === '<' ? 3 : 2;
        }
      }
      last = undefined;
      continue;
    }
    if (c === ')') {
      const group = stack.length > 1 ? (stack.pop() as Group) : { risky: false };
      if (group.risky) top().risky = true;
      last = { riskyGroup: group.risky };
      i += 1;
      continue;
    }
    if (c === '|') {
      top().risky = true;
      last = undefined;
      i += 1;
      continue;
    }
    const quantifier = readQuantifier(p, i);
    if (quantifier) {
      if (quantifier.max > 1) {
        if (last?.riskyGroup) {
          return `${BACKTRACK} a repeated group holds a quantifier or an alternation (like (a+)+ or (a|b)*)`;
        }
        top().risky = true;
      }
      if (quantifier.max === Infinity && ++unbounded > REGEX_LIMITS.maxUnboundedRepetitions) {
        return `${BACKTRACK} more than ${REGEX_LIMITS.maxUnboundedRepetitions} unbounded repetitions (*, + or {n,})`;
      }
      i = quantifier.end;
      if (p[i] === '?') i += 1;
      last = undefined;
      continue;
    }
    last = { riskyGroup: false };
    i += 1;
  }
  return undefined;
}

function endOfClass(p: string, from: number): number {
  let i = from;
  if (p[i] === ']') i += 1; // a leading ] is literal (without the u flag)
  while (i < p.length && p[i] !== ']') i += p[i] === '\\' ? 2 : 1;
  return i + 1;
}

function readQuantifier(p: string, i: number): { max: number; end: number } | undefined {
  const c = p[i];
  if (c === '*' || c === '+') return { max: Infinity, end: i + 1 };
  if (c === '?') return { max: 1, end: i + 1 };
  if (c !== '{') return undefined;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 30));
  if (!m) return undefined; // a literal {
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  return { max, end: i + m[0].length };
}
