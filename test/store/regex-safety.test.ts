import { describe, expect, it } from 'vitest';
import { regexProblem } from '../../src/store/regex-safety.js';

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
      '\\p{L}+',
      'a{2,5}b?',
      '(ab)?c*',
      '[(+*)]+',
    ]) {
      expect(regexProblem(pattern, pattern === '\\p{L}+' ? 'u' : 'i'), pattern).toBeUndefined();
    }
  });

  it('refuses patterns that can backtrack catastrophically', () => {
    for (const pattern of [
      '(a+)+$',
      '(a*)*b',
      '(?:a+)+',
      '(a|a)*b',
      '(a|aa)+$',
      '((ab)*)+',
      '(\\w+\\.)+com',
      '(.*a){10}',
      '(a{1,10}){1,10}',
      '((a|b)c)*',
      '.*a.*b.*c.*d',
      '\\d+\\d+\\d+\\d+',
    ]) {
      expect(regexProblem(pattern), pattern).toMatch(/backtrack catastrophically/);
    }
  });

  it('refuses backreferences, invalid patterns, long patterns and unknown flags', () => {
    expect(regexProblem('(a)\\1')).toMatch(/backreferences/);
    expect(regexProblem('(?<x>a)\\k<x>')).toMatch(/backreferences/);
    expect(regexProblem('[')).toMatch(/invalid/);
    expect(regexProblem('a**')).toMatch(/invalid/);
    expect(regexProblem('x'.repeat(201))).toMatch(/longer than 200/);
    expect(regexProblem('x', 'g')).toMatch(/not "g"/);
    expect(regexProblem('x', 'y')).toMatch(/not "y"/);
    expect(regexProblem('\\p{L', 'u')).toMatch(/invalid/);
  });
});
