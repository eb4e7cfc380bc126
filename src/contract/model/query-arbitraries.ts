// The queries of a list operation drawn inside its closed world: every documented parameter,
// absent or with values on and between the records' times, around page sizes, on tie-heavy and
// dotted sort fields, and filters from the records' own paths and values in the document's
// filter language. Its bounds are always sent (clamped inside), so every query stays in the world.
import fc from 'fast-check';
import { valueAtPath } from '../../shared/field-path.js';
import { type Row, booleanFilters, hasParameter, type Query } from './list-model.js';
import type { Operation } from '../../spec/index.js';
import type { ClosedWorld } from './closed-world.js';

type Scalar = string | number | boolean | null;

const MAX_VALUES = 24;
/** Paths no record has: a filter on them matches by absence only. */
const ABSENT_PATHS = ['noSuchField', 'entity.noSuchField'];

/** Every dotted path to a value in the records (through arrays of objects, as MongoDB reads them). */
export function pathsOf(records: readonly Row[]): string[] {
  const paths = new Set<string>();
  const walk = (value: unknown, path: string): void => {
    if (path) paths.add(path);
    if (Array.isArray(value)) for (const item of value) walk(item, path);
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
  };
  for (const r of records) walk(r, '');
  return [...paths].sort();
}

function scalarsAt(records: readonly Row[], path: string): Scalar[] {
  const found = new Set<Scalar>();
  const add = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(add);
    else if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) found.add(v as Scalar);
  };
  for (const r of records) add(valueAtPath(r, path.split('.')));
  return [...found].slice(0, MAX_VALUES);
}

const escaped = (c: string): string => (/[\\^$.|?*+()[\]{}/]/.test(c) ? `\\${c}` : c);

/**
 * A `$regex` from a piece of a value: literals, `.`, `^`, `$` and the classes `[0-9]`, `[a-z]`,
 * which mean the same in JavaScript and RE2 (`.` only where every value is printable ASCII, as
 * the two differ on line separators and on characters beyond U+FFFF).
 */
function regexOf(strings: readonly string[]): fc.Arbitrary<{ $regex: string }> {
  const ascii = strings.every((s) => /^[\x20-\x7e]*$/.test(s));
  return fc
    .record({ text: fc.constantFrom(...strings), start: fc.nat(), length: fc.integer({ min: 1, max: 8 }), head: fc.boolean(), tail: fc.boolean(), wild: fc.option(fc.nat()) })
    .map(({ text, start, length, head, tail, wild }) => {
      const chars = [...text];
      const from = chars.length === 0 ? 0 : start % chars.length;
      const piece = chars.slice(from, from + length);
      const parts = piece.map(escaped);
      if (wild !== null && piece.length > 0) {
        const i = wild % piece.length;
        const c = piece[i] as string;
        if (/[0-9]/.test(c)) parts[i] = '[0-9]';
        else if (/[a-z]/.test(c)) parts[i] = '[a-z]';
        else if (ascii) parts[i] = '.';
      }
      return { $regex: `${head ? '^' : ''}${parts.join('')}${tail ? '$' : ''}` };
    });
}

function conditionOn(records: readonly Row[], path: string): fc.Arbitrary<unknown> {
  const seen = scalarsAt(records, path);
  const others = fc.constantFrom<Scalar>('', 0, 'none', null);
  const value = seen.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...seen), weight: 4 }, { arbitrary: others, weight: 1 }) : others;
  const strings = seen.filter((v): v is string => typeof v === 'string');
  return fc.oneof(
    { arbitrary: value, weight: 4 },
    value.map(($ne) => ({ $ne })),
    fc.array(value, { maxLength: 3 }).map(($in) => ({ $in })),
    fc.array(value, { maxLength: 3 }).map(($nin) => ({ $nin })),
    fc.tuple(fc.constantFrom('$gt', '$gte', '$lt', '$lte'), value).map(([op, v]) => ({ [op]: v })),
    fc.boolean().map(($exists) => ({ $exists })),
    ...(strings.length > 0 ? [{ arbitrary: regexOf(strings), weight: 2 }] : []),
  );
}

/** Filters on the records' paths: one or two fields, or `$and`/`$or` of such, nested once. */
export function filterArbitrary(records: readonly Row[]): fc.Arbitrary<Row> {
  const paths = [...pathsOf(records), ...ABSENT_PATHS];
  const field = fc.constantFrom(...paths).chain((path) => conditionOn(records, path).map((condition) => ({ [path]: condition })));
  const fields = fc.array(field, { minLength: 1, maxLength: 2 }).map((parts) => Object.assign({}, ...parts) as Row);
  const logical = fc.tuple(fc.constantFrom('$and', '$or'), fc.array(fields, { minLength: 1, maxLength: 3 })).map(([op, parts]) => ({ [op]: parts }) as Row);
  return fc.oneof({ arbitrary: fields, weight: 3 }, { arbitrary: logical, weight: 1 });
}

/** Absent more often than present (3 to 2), so that a case sets few parameters; shrinks towards absent. */
const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ withCrossShrink: true }, { arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 2 });

function times(world: ClosedWorld): { lo: number; hi: number; stamps: number[] } {
  const stamps = [...new Set(world.records.map((r) => r.timestamp).filter((t): t is number => typeof t === 'number'))].sort((a, b) => a - b);
  const lo = world.bounds.from === undefined ? (stamps[0] ?? 0) - 1 : Number(world.bounds.from);
  const hi = world.bounds.to === undefined ? (stamps.at(-1) ?? 0) + 1 : Number(world.bounds.to);
  return { lo, hi, stamps };
}

/** `from`/`to` on a record's time or between, ordered, inside the world's bounds. */
function boundsArbitrary(world: ClosedWorld): fc.Arbitrary<Query> {
  const { lo, hi, stamps } = times(world);
  const instant = stamps.length > 0 ? fc.oneof(fc.constantFrom(...stamps), fc.integer({ min: lo, max: hi })) : fc.integer({ min: lo, max: hi });
  return fc.record({ from: optional(instant), to: optional(instant) }).map(({ from, to }) => {
    const [a, b] = from !== undefined && to !== undefined && from > to ? [to, from] : [from, to];
    return defined({ from: (a ?? world.bounds.from)?.toString(), to: (b ?? world.bounds.to)?.toString() });
  });
}

/** `skip` and `limit`: absent, 0, 1, around the world's size and common page sizes. */
function pageArbitrary(size: number, maxRecords: number): fc.Arbitrary<Query> {
  const count = fc.oneof(fc.constantFrom(0, 1, 2, 10, 50, 100, maxRecords), fc.integer({ min: 0, max: size + 2 }), fc.constantFrom(Math.max(0, size - 1), size, size + 1));
  return fc.record({ skip: optional(count), limit: optional(count) }).map(({ skip, limit }) => defined({ skip: skip?.toString(), limit: limit?.toString() }));
}

const defined = (q: Record<string, string | undefined>): Query => Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));

/**
 * The queries of a list operation, by what the document gives it: from/to, skip and limit, and
 * getEventLog's filter, type, sortField, sortDirection and inverse, or the boolean filters of an
 * operation without sort parameters (getLimitBlockLog).
 */
export function queriesOf(op: Operation, world: ClosedWorld, maxRecords: number): fc.Arbitrary<Query> {
  const own: Record<string, fc.Arbitrary<string | undefined>> = hasParameter(op, 'sortField')
    ? {
        filter: optional(filterArbitrary(world.records).map((f) => JSON.stringify(f))),
        type: optional(fc.constantFrom('1', '2')),
        sortField: optional(fc.constantFrom(...pathsOf(world.records), ...ABSENT_PATHS)),
        sortDirection: optional(fc.constantFrom('asc', 'desc')),
        inverse: optional(fc.constantFrom('true', 'false')),
      }
    : Object.fromEntries(booleanFilters(op).map((name) => [name, optional(fc.constantFrom('true', 'false'))]));
  return fc
    .record({ bounds: boundsArbitrary(world), page: pageArbitrary(world.records.length, maxRecords), ...own })
    .map(({ bounds, page, ...rest }) => ({ ...defined(rest), ...bounds, ...page }));
}

/**
 * The first cases of a search, before the drawn ones: each parameter alone at a telling value
 * (plus the world's bounds), so that a server that reads one parameter wrongly shows it at once.
 */
export function examplesOf(op: Operation, world: ClosedWorld): Query[] {
  const { stamps } = times(world);
  const middle = stamps[Math.floor(stamps.length / 2)];
  const common: Query[] = [{}, { limit: '0' }, { limit: '1' }, { skip: '1', limit: '2' }, ...(middle === undefined ? [] : [{ from: String(middle), to: String(middle) }])];
  const own: Query[] = hasParameter(op, 'sortField')
    ? [{ sortDirection: 'desc' }, { inverse: 'true' }, { inverse: 'false' }, { sortField: 'type', sortDirection: 'desc' }, { type: '1', limit: '10' }, { type: '2' }, { filter: '{"type":{"$ne":"snmp-trap"}}' }]
    : booleanFilters(op).flatMap((name) => [{ [name]: 'true' }, { [name]: 'false' }]);
  return [...common, ...own].map((q) => ({ ...world.bounds, ...q }));
}
