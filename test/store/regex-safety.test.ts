import { describe, expect, it } from 'vitest';
import { regexProblem } from '../../src/store/regex-safety.js';
import { FILTER_LIMITS } from '../helpers/filter-limits.js';

const problem = (pattern: string, options = '') => regexProblem(pattern, options, FILTER_LIMITS);

describe('regexProblem', () => {
  it('accepts the regexes people write against the event log', () => {
    for (const pattern of [
      '^linkDown',
      'core-sw-0[12]',
      'GigabitEthernet1/0/\\d+$',
      '^1\\.3\\.6\\.1\\.4\\.1\\.9\\.',
      '(up|down)$',
      '^(?:link(?:Up|Down))',
      'rack-0[1-6]/temperature',
      '.*alarm.*',
      'a{2,5}b?',
      '(ab)?c*',
      '[(+*)]+',
      '(?<port>\\d+)/\\d+',
    ]) {
      expect(problem(pattern, 'i'), pattern).toBeUndefined();
    }
    expect(problem('\\p{L}+', 'u')).toBeUndefined();
    expect(problem('\\p{Script=Greek}', 'u')).toBeUndefined();
    expect(problem('^up$', 'm')).toBeUndefined();
  });

  it('accepts patterns that backtrack catastrophically elsewhere: they are matched in linear time', () => {
    for (const pattern of ['(a+)+$', '(a*)*b', '(a|aa)+$', '(\\w+\\.)+com', '(.*a){10}', '.*a.*b.*c.*d', '.{0,200}.{0,200}.{0,200}!']) {
      expect(problem(pattern), pattern).toBeUndefined();
    }
  });

  it('refuses what linear-time matching cannot do with the meaning JavaScript gives', () => {
    expect(problem('(a)\\1')).toMatch(/backreferences are not allowed/);
    expect(problem('(?<x>a)\\k<x>')).toMatch(/backreferences are not allowed/);
    for (const p of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) expect(problem(p), p).toMatch(/lookahead and lookbehind assertions are not supported/);
    expect(problem('\\01')).toMatch(/octal escapes/);
    expect(problem('a$b', 'm')).toMatch(/with the m option, \$ is supported only at the end/);
    expect(problem('\\bx', 'iu')).toMatch(/\\b and \\B are not supported with both the i and u options/);
    expect(problem('\\p{L}', 'iu')).toMatch(/not supported with the i option/);
    expect(problem('a{1001}')).toMatch(/cannot be matched in linear time/);
  });

  it('refuses invalid patterns, long or complex ones and unknown flags', () => {
    expect(problem('[')).toMatch(/invalid/);
    expect(problem('a**')).toMatch(/invalid/);
    expect(problem('x'.repeat(FILTER_LIMITS.maxRegexLength + 1))).toBe(`regex is longer than ${FILTER_LIMITS.maxRegexLength} characters`);
    expect(problem('[a-z]{0,1000}'.repeat(4))).toMatch(new RegExp(`too complex: it compiles to \\d+ instructions, more than ${FILTER_LIMITS.maxRegexProgram}`));
    expect(problem('x', 'g')).toMatch(/not "g"/);
    expect(problem('x', 'y')).toMatch(/not "y"/);
    expect(problem('x', 'x')).toMatch(/not "x"/);
    expect(problem('\\p{L', 'u')).toMatch(/invalid/);
  });
});
