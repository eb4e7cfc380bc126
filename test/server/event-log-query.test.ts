import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { generateEvents } from '../../src/seed/generate-events.js';
import { buildFake } from '../../src/server/build.js';
import { eventLogQuery, type QueryProblem } from '../../src/server/handlers.js';
import type { EventLogQueryParams } from '../../src/spec/types.js';
import { EventLogStore } from '../../src/store/event-log.js';
import { FILTER_OPERATORS } from '../../src/store/filter-check.js';
import { FILTER_LIMITS } from '../helpers/filter-limits.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// getEventLog's parameters: their shapes are checked by the document at the route (what a
// client gets is asked over HTTP); eventLogQuery turns valid ones into the store's query and
// checks the rules no schema states (from <= to, the filter language, field paths).
const problemsOf = (params: EventLogQueryParams): QueryProblem[] => {
  const result = eventLogQuery(params, FILTER_LIMITS);
  return result.ok ? [] : result.problems;
};
const app = await buildFake({ spec, docs: false, records: 20 });
afterAll(() => app.close());
const refusal = async (query: string) => {
  const response = await app.inject({ url: `${API}/event-log?${query}`, headers: basicOf('viewer') });
  expectConforms('getEventLog', response);
  expect(response.statusCode, query).toBe(400);
  return JSON.parse(response.body) as { details: QueryProblem[] };
};
const filterProblem = (filter: unknown): string | undefined => {
  const problems = problemsOf({ filter: typeof filter === 'string' ? filter : JSON.stringify(filter) });
  expect(problems.every((p) => p.name === 'filter')).toBe(true);
  return problems[0]?.problem;
};

describe('the query of getEventLog', () => {
  it('converts the parameters of the document into a query', () => {
    const result = eventLogQuery({
      filter: '{"payload.trapOid":"1.3.6.1.6.3.1.1.5.3"}',
      from: 1756497678991,
      to: 1756584078991,
      inverse: true,
      limit: '50',
      skip: '100',
      sortDirection: 'desc',
      sortField: 'entity.entityName',
      type: '1',
    }, FILTER_LIMITS);
    expect(result).toEqual({
      ok: true,
      query: {
        filter: { 'payload.trapOid': '1.3.6.1.6.3.1.1.5.3' },
        from: 1756497678991,
        to: 1756584078991,
        inverse: true,
        limit: 50,
        skip: 100,
        sortDirection: 'desc',
        sortField: 'entity.entityName',
        type: 'snmp-trap',
      },
    });
    expect(eventLogQuery({ type: '2' }, FILTER_LIMITS)).toEqual({ ok: true, query: { type: 'mqtt-message' } });
    expect(eventLogQuery({}, FILTER_LIMITS)).toEqual({ ok: true, query: {} });
  });

  it('names each refused parameter and says what is wrong', async () => {
    const cases: [string, string, RegExp][] = [
      ['limit=-1', 'limit', /must match pattern/],
      ['limit=5x', 'limit', /must match pattern/],
      ['limit=1e3', 'limit', /must match pattern/],
      ['skip=', 'skip', /must match pattern/],
      ['skip=1234567890', 'skip', /must match pattern/],
      ['from=yesterday', 'from', /integer/],
      ['to=1.5', 'to', /integer/],
      ['from=10&to=9', 'from', /greater than "to"/],
      ['inverse=yes', 'inverse', /boolean/],
      ['sortDirection=up', 'sortDirection', /^must be one of "asc", "desc", not "up"$/],
      ['sortField=payload..text', 'sortField', /none empty/],
      ['sortField=__proto__.x', 'sortField', /__proto__/],
      [`sortField=${'x'.repeat(201)}`, 'sortField', /200/],
      ['type=3', 'type', /^must be one of "1", "2", not "3"$/],
      ['type=snmp-trap', 'type', /^must be one of "1", "2", not "snmp-trap"$/],
    ];
    for (const [query, name, problem] of cases) {
      const { details } = await refusal(query);
      expect(details, query).toHaveLength(1);
      expect(details[0]?.name).toBe(name);
      expect(details[0]?.problem).toMatch(problem);
    }
  });

  it('reports every refused parameter at once', async () => {
    expect((await refusal('limit=x&skip=y&type=9&filter=%5B')).details.map((p) => p.name)).toEqual(['limit', 'skip', 'type']);
    expect(problemsOf({ filter: '[', from: 2, to: 1, sortField: 'a..b' }).map((p) => p.name)).toEqual(['filter', 'from', 'sortField']);
  });

  it('accepts the filter operators of the document', () => {
    const ok = [
      { 'payload.trapOid': '1.3.6.1.6.3.1.1.5.3' },
      { timestamp: { $gte: 1, $lte: 9 }, type: { $ne: 'mqtt-message' } },
      { 'entity.entityType': { $in: [1, 3] }, agentId: { $nin: ['a'] } },
      { 'payload.text': { $regex: '^linkdown', $options: 'i' } },
      { 'payload.text': { $not: { $regex: 'core-sw' } } },
      { $or: [{ type: 'snmp-trap' }, { 'payload.qos': { $gt: 0 } }], $nor: [{ agentId: 'x' }] },
      { $and: [{ timestamp: { $lt: 5 } }, { 'payload.retain': { $exists: true } }] },
      { 'payload.bindings': { $elemMatch: { type: 'TimeTicks', value: { $gt: 100 } } } },
      { 'payload.bindings.type': { $all: ['TimeTicks', 'ObjectIdentifier'] } },
      { 'payload.bindings': { $size: 2 } },
      { 'payload.bindings.value': { $elemMatch: { $gte: 1, $lt: 5 } } },
      { 'entity.entityType': { $eq: 1 } },
      {},
    ];
    for (const f of ok) expect(filterProblem(f), JSON.stringify(f)).toBeUndefined();
  });

  it('refuses operators outside the allowed set, wherever they stand', () => {
    for (const op of ['$where', '$function', '$expr', '$accumulator', '$text', '$mod', '$type', '$jsonSchema', '$comment']) {
      expect(filterProblem({ [op]: 'x' })).toBe(`operator ${op} is not allowed`);
      expect(filterProblem({ a: { $not: { [op]: 1 } } })).toBe(`operator ${op} is not allowed`);
      expect(filterProblem({ a: { $eq: { [op]: 1 } } })).toBe(`operator ${op} is not allowed`);
    }
    expect(filterProblem({ $or: [{ a: { $where: 'sleep(1000)' } }] })).toBe('operator $where is not allowed');
  });

  it('refuses filters that are not JSON objects or misuse operators', () => {
    expect(filterProblem('{type: 1}')).toBe('is not valid JSON');
    expect(filterProblem('[1]')).toBe('must be a JSON object');
    expect(filterProblem('null')).toBe('must be a JSON object');
    expect(filterProblem('"x"')).toBe('must be a JSON object');
    expect(filterProblem({ $gt: 1 })).toMatch(/must be used on a field/);
    expect(filterProblem({ a: { $in: 1 } })).toMatch(/\$in on "a" needs an array/);
    expect(filterProblem({ a: { $size: -1 } })).toMatch(/\$size/);
    expect(filterProblem({ a: { $exists: 'yes' } })).toMatch(/\$exists/);
    expect(filterProblem({ a: { $regex: 5 } })).toMatch(/\$regex on "a" needs a string/);
    expect(filterProblem({ a: { $options: 'i' } })).toMatch(/\$options on "a" needs \$regex/);
    expect(filterProblem({ a: { $not: 'x' } })).toMatch(/\$not on "a" needs an object of operators/);
    expect(filterProblem({ a: { $gt: 1, b: 2 } })).toMatch(/mix operators and field names/);
    expect(filterProblem({ $or: [] })).toMatch(/\$or needs a non-empty array/);
    expect(filterProblem({ $and: [1] })).toMatch(/\$and needs an array of objects/);
    expect(filterProblem({ a: { $or: [{ b: 1 }] } })).toMatch(/\$or must be used at the level of fields/);
    expect(filterProblem({ '__proto__.polluted': 1 })).toMatch(/__proto__/);
    expect(filterProblem({ 'a..b': 1 })).toMatch(/none empty/);
  });

  it('refuses filters that are too deep, too large or too long', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 25; i++) deep = { $and: [{ a: deep }] };
    const { maxDepth, maxNodes, maxLength, maxRegexes } = FILTER_LIMITS;
    expect(filterProblem(deep)).toBe(`nests deeper than ${maxDepth} levels`);
    expect(filterProblem({ a: { $in: Array.from({ length: maxNodes + 1 }, (_, i) => i) } })).toBe(`has more than ${maxNodes} keys and array items`);
    expect(filterProblem(`{"a":"${'x'.repeat(maxLength + 1)}"}`)).toBe(`is longer than ${maxLength} characters`);
    const regexes = Object.fromEntries(Array.from({ length: maxRegexes + 1 }, (_, i) => [`f${i}`, { $regex: 'x' }]));
    expect(filterProblem(regexes)).toBe(`has more than ${maxRegexes} $regex operators`);
    // A deep array nest is refused by the same bound, not by a stack overflow.
    expect(filterProblem(`{"a":${'['.repeat(4000)}${']'.repeat(4000)}}`)).toMatch(/nests deeper/);
  });

  it('refuses long regexes, those RE2 refuses (quoting its reason) or compiles too large, and bad $options', () => {
    expect(filterProblem({ a: { $regex: 'a'.repeat(FILTER_LIMITS.maxRegexLength + 1) } })).toBe(
      `regex is longer than ${FILTER_LIMITS.maxRegexLength} characters (on "a")`,
    );
    expect(filterProblem({ a: { $regex: '(' } })).toBe('regex is not valid RE2 syntax: error parsing regexp: missing closing ): `(` (on "a")');
    expect(filterProblem({ a: { $regex: '(a)\\1' } })).toMatch(/not valid RE2 syntax: .*invalid escape sequence: `\\1`/);
    expect(filterProblem({ a: { $not: { $regex: 'x(?=y)' } } })).toMatch(/not valid RE2 syntax: .*unsupported Perl syntax: `\(\?=`/);
    expect(filterProblem({ a: { $elemMatch: { $regex: '(?<!x)y' } } })).toMatch(/not valid RE2 syntax/);
    expect(filterProblem({ a: { $all: [{ $elemMatch: { b: { $regex: '(a)\\1' } } }] } })).toMatch(/invalid escape sequence/);
    expect(filterProblem({ a: { $regex: '.{0,1000}'.repeat(3) } })).toMatch(/too complex: it compiles to \d+ RE2 instructions, more than 3000/);
    // Catastrophic for a backtracking engine, linear here: accepted; so is RE2's own syntax.
    expect(filterProblem({ a: { $regex: '(a+)+$' } })).toBeUndefined();
    expect(filterProblem({ a: { $not: { $regex: '(a|a)*b' } } })).toBeUndefined();
    expect(filterProblem({ a: { $regex: '(?i)link\\pL+\\z' } })).toBeUndefined();
    expect(filterProblem({ a: { $regex: 'x', $options: 'g' } })).toMatch(/\$options may hold only the flags i, m, s, u, not "g"/);
    expect(filterProblem({ a: { $options: 'x', $regex: 'x' } })).toMatch(/\$options may hold only the flags i, m, s, u, not "x"/);
    expect(filterProblem({ a: { $regex: 'x', $options: 'ii' } })).toMatch(/repeats the flag "i"/);
    expect(filterProblem({ a: { $regex: 'x', $options: 5 } })).toMatch(/\$options on "a" needs a string/);
  });

  it('never throws, whatever filter it is given', () => {
    fc.assert(fc.property(fc.string(), (filter) => void eventLogQuery({ filter }, FILTER_LIMITS)), { numRuns: 1000 });
    fc.assert(fc.property(fc.json({ maxDepth: 6 }), (filter) => void eventLogQuery({ filter }, FILTER_LIMITS)), { numRuns: 1000 });
  });
});

describe('a filter that parses', () => {
  const store = new EventLogStore(generateEvents({ count: 60 }));
  const small = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 5 }), fc.constantFrom('', 'a', 'snmp-trap', '^l', '(a|b)', '1.3'));
  const { filter } = fc.letrec<{ filter: Record<string, unknown>; value: unknown; ops: Record<string, unknown> }>((tie) => ({
    filter: fc.dictionary(
      fc.constantFrom('type', 'timestamp', 'payload.text', 'payload.bindings', 'payload.bindings.value', 'entity.entityType', 'x', '$and', '$or', '$nor'),
      tie('value'),
      { maxKeys: 3, depthIdentifier: 'f' },
    ),
    value: fc.oneof({ depthSize: 'small' }, small, tie('ops'), fc.array(fc.oneof(small, tie('filter')), { maxLength: 3 })),
    ops: fc.dictionary(fc.constantFrom(...FILTER_OPERATORS), fc.oneof(small, tie('ops'), tie('filter'), fc.array(small, { maxLength: 3 })), {
      maxKeys: 2,
      depthIdentifier: 'f',
    }),
  }));

  it('never makes a query throw', () => {
    let accepted = 0;
    fc.assert(
      fc.property(filter, fc.constantFrom('timestamp', 'payload.text'), (f, sortField) => {
        const parsed = eventLogQuery({ filter: JSON.stringify(f), sortField, limit: '10' }, FILTER_LIMITS);
        if (!parsed.ok) return;
        accepted++;
        expect(() => store.query(parsed.query)).not.toThrow();
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});
