import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import type { EventLogRecord, SnmpTrapRecord } from '../../src/spec/types.js';
import { FILTER_LIMITS } from '../helpers/filter-limits.js';
import { API, basicOf, expectConforms, expectError, spec } from './helpers.js';

// `$regex` in RE2's syntax, with RE2's flags, and the bounds of one filter, through HTTP.
const app = await buildFake({ spec, docs: false, records: 2_000 });
afterAll(() => app.close());

const get = async (filter: unknown, more = '') => {
  const response = await app.inject({ url: `${API}/event-log?filter=${encodeURIComponent(JSON.stringify(filter))}${more}`, headers: basicOf('viewer') });
  expectConforms('getEventLog', response);
  return response;
};
const texts = async (filter: unknown) => {
  const response = await get(filter);
  expect(response.statusCode, response.body).toBe(200);
  return (JSON.parse(response.body) as EventLogRecord[]).map((r) => (r as SnmpTrapRecord).payload.text);
};
const refusal = async (filter: unknown) => {
  const response = await get(filter);
  expectError(response, 400, 'INVALID_FILTER');
  const body = JSON.parse(response.body) as { message: string; details: { name: string; problem: string }[] };
  expect(body.details).toEqual([{ location: 'query', name: 'filter', problem: expect.any(String) }]);
  expect(body.message).toContain(body.details[0]?.problem);
  return body.details[0]?.problem;
};

describe('$regex in RE2 syntax', () => {
  it('reads $options as RE2 flags and RE2-only syntax the same way', async () => {
    const exact = await texts({ 'payload.text': { $regex: '^linkDown' } });
    expect(exact.length).toBeGreaterThan(0);
    const upper = { $regex: '^LINKDOWN' };
    expect(await texts({ 'payload.text': upper })).toEqual([]);
    expect(await texts({ 'payload.text': { ...upper, $options: 'i' } })).toEqual(exact);
    // An inline flag group and a Unicode class: RE2 syntax that a JavaScript RegExp refuses.
    expect(await texts({ 'payload.text': { $regex: '(?i)^LINK\\pL+' } })).toEqual(await texts({ 'payload.text': { $regex: '^link(Up|Down)' } }));
    // u is accepted and changes nothing.
    expect(await texts({ 'payload.text': { ...upper, $options: 'iu' } })).toEqual(exact);
  });

  it('refuses a pattern RE2 refuses with 400 INVALID_FILTER quoting its reason', async () => {
    expect(await refusal({ 'payload.text': { $regex: '(down)\\1' } })).toBe('regex is not valid RE2 syntax: error parsing regexp: invalid escape sequence: `\\1` (on "payload.text")');
    expect(await refusal({ 'payload.text': { $not: { $regex: 'link(?=Down)' } } })).toMatch(/RE2 syntax: .*unsupported Perl syntax/);
    expect(await refusal({ 'payload.text': { $regex: 'x', $options: 'x' } })).toMatch(/only the flags i, m, s, u, not "x"/);
  });
});

describe('a large filter', () => {
  const { maxNodes, maxRegexes, maxRegexLength } = FILTER_LIMITS;
  // Each regex as long as allowed and of many states: RE2 matches it in time linear in the text.
  const heavy = (i: number) => {
    const pattern = `[a-z ]{0,${40 + i}}[aeiou][^x]{0,20}[0-9]`;
    return pattern + 'y?'.repeat((maxRegexLength - pattern.length) >> 1);
  };
  const large = {
    $or: Array.from({ length: maxRegexes }, (_, i) => ({ 'payload.text': { $regex: heavy(i), $options: 'is' } })),
    agentId: { $nin: Array.from({ length: maxNodes - 4 * maxRegexes - 10 }, (_, i) => i) },
  };

  it('is answered at the limits', async () => {
    const response = await get(large, '&limit=5');
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body)).toHaveLength(5);
  });

  it('is refused past each of them', async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(await refusal({ ...large, agentId: { $nin: items(maxNodes) } })).toBe(`has more than ${maxNodes} keys and array items`);
    expect(await refusal({ ...large, type: { $regex: 'x' } })).toBe(`has more than ${maxRegexes} $regex operators`);
    expect(await refusal({ 'payload.text': { $regex: 'a'.repeat(maxRegexLength + 1) } })).toMatch(/longer than/);
    // Repetition counts multiply the program RE2 runs for each character.
    expect(await refusal({ 'payload.text': { $regex: '[^x]{0,1000}'.repeat(3) } })).toMatch(/too complex: it compiles to \d+ RE2 instructions/);
  });
});
