import type { FilterLimits } from '../spec/limits.js';
import { fieldPathProblem } from '../shared/field-path.js';
import { compileRegex, regexOptionsProblem } from './filter-regex.js';

/**
 * The operators a filter may use: exactly the list of the `filter` parameter's gap-fill in
 * the OpenAPI document. Anything else (`$where`, `$function`, `$expr`, `$accumulator`, ...)
 * is refused, since some run code and all are outside the documented language.
 */
export const FILTER_OPERATORS = [
  '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options',
  '$and', '$or', '$nor', '$not', '$all', '$elemMatch', '$size',
] as const;

/** A parsed filter that passed every check; only such objects reach mingo. */
export type Filter = Readonly<Record<string, unknown>>;

const ALLOWED = new Set<string>(FILTER_OPERATORS);
const LOGICAL = new Set(['$and', '$or', '$nor']);

class FilterProblem extends Error {}
const fail = (problem: string): never => {
  throw new FilterProblem(problem);
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The problem of a parsed JSON value as a filter within the document's limits, or undefined. */
export function filterProblem(value: unknown, limits: FilterLimits): string | undefined {
  try {
    if (!isPlainObject(value)) fail('must be a JSON object');
    checkSize(value, limits);
    checkMeaning(value as Record<string, unknown>, limits);
    return undefined;
  } catch (e) {
    if (e instanceof FilterProblem) return e.message;
    return `cannot be checked: ${(e as Error).message}`;
  }
}

/** Depth, node count and stray operators, over the whole value before its meaning is read. */
function checkSize(root: unknown, limits: FilterLimits): void {
  let nodes = 0;
  let regexes = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.maxDepth) fail(`nests deeper than ${limits.maxDepth} levels`);
    const children = Array.isArray(value) ? value : Object.values(value);
    nodes += children.length;
    if (nodes > limits.maxNodes) fail(`has more than ${limits.maxNodes} keys and array items`);
    if (!Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        if (key.startsWith('$') && !ALLOWED.has(key)) fail(`operator ${key} is not allowed`);
        if (key === '$regex' && ++regexes > limits.maxRegexes) fail(`has more than ${limits.maxRegexes} $regex operators`);
      }
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
}

/** The meaning of a filter, field by field; regexes are checked within the limits. */
function checkMeaning(filter: Record<string, unknown>, { maxRegexLength }: FilterLimits): void {
  /** A query object: field paths and the logical operators $and, $or, $nor. */
  const query = (q: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(q)) {
      if (LOGICAL.has(key)) {
        if (!Array.isArray(value) || value.length === 0) fail(`${key} needs a non-empty array of filters`);
        for (const item of value as unknown[]) {
          if (!isPlainObject(item)) fail(`${key} needs an array of objects`);
          query(item as Record<string, unknown>);
        }
      } else if (key.startsWith('$')) {
        fail(`operator ${key} must be used on a field, as {"field": {"${key}": ...}}`);
      } else {
        const pathProblem = fieldPathProblem(key);
        if (pathProblem) fail(`field "${key}" ${pathProblem}`);
        if (isOperatorObject(value)) operators(key, value as Record<string, unknown>);
      }
    }
  };

  /** The operators applied to one field, e.g. {"$gte": 3, "$lt": 9}. */
  const operators = (field: string, ops: Record<string, unknown>): void => {
    const where = `on "${field}"`;
    for (const [op, arg] of Object.entries(ops)) {
      switch (op) {
        case '$in':
        case '$nin':
        case '$all':
          if (!Array.isArray(arg)) fail(`${op} ${where} needs an array`);
          // $all takes values, or {"$elemMatch": ...} items.
          for (const item of op === '$all' ? (arg as unknown[]) : []) {
            if (!isPlainObject(item) || !Object.keys(item).some((k) => k.startsWith('$'))) continue;
            if (Object.keys(item).join() !== '$elemMatch') fail(`$all ${where} takes values or {"$elemMatch": ...} items`);
            elemMatch(field, item.$elemMatch);
          }
          break;
        case '$exists':
          if (typeof arg !== 'boolean' && typeof arg !== 'number') fail(`$exists ${where} needs true or false`);
          break;
        case '$size':
          if (!Number.isSafeInteger(arg) || (arg as number) < 0) fail(`$size ${where} needs a non-negative integer`);
          break;
        case '$regex': {
          if (typeof arg !== 'string') fail(`$regex ${where} needs a string`);
          const options = ops.$options ?? '';
          if (typeof options !== 'string') fail(`$options ${where} needs a string`);
          const optionsProblem = regexOptionsProblem(options as string);
          if (optionsProblem) fail(`${optionsProblem} (${where})`);
          if ((arg as string).length > maxRegexLength) fail(`regex is longer than ${maxRegexLength} characters (${where})`);
          const compiled = compileRegex(arg as string, options as string);
          if (typeof compiled === 'string') fail(`regex ${compiled} (${where})`);
          break;
        }
        case '$options': // checked with its $regex
          if (!('$regex' in ops)) fail(`$options ${where} needs $regex beside it`);
          break;
        case '$not':
          if (!isOperatorObject(arg)) fail(`$not ${where} needs an object of operators, e.g. {"$not": {"$gt": 5}}`);
          operators(field, arg as Record<string, unknown>);
          break;
        case '$elemMatch':
          elemMatch(field, arg);
          break;
        case '$and':
        case '$or':
        case '$nor':
          fail(`${op} must be used at the level of fields, not ${where}`);
          break;
        default:
          // $eq, $ne, $gt, $gte, $lt, $lte take any JSON value.
          break;
      }
    }
  };

  const elemMatch = (field: string, arg: unknown): void => {
    if (!isPlainObject(arg)) fail(`$elemMatch on "${field}" needs an object`);
    const obj = arg as Record<string, unknown>;
    const keys = Object.keys(obj);
    // mingo reads it as operators on each element when every key is a non-logical operator.
    if (keys.length > 0 && keys.every((k) => k.startsWith('$') && !LOGICAL.has(k))) operators(`${field}.$elemMatch`, obj);
    else query(obj);
  };

  query(filter);
}

function isOperatorObject(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  const operators = keys.filter((k) => k.startsWith('$'));
  if (operators.length > 0 && operators.length < keys.length) fail('an object must not mix operators and field names');
  return operators.length > 0;
}

