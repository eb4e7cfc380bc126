// Filters drawn from the records of a closed world: their dotted paths (and some no record has),
// their values, and the operators of the document's filter language.
import fc from 'fast-check';
import { valueAtPath } from '../../shared/field-path.js';
import type { Row } from './list-rules.js';

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
