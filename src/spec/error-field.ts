import type { ErrorObject } from 'ajv';
import type { ProblemWords } from './problem-words.js';

/** The parts of an Ajv error (or a SchemaError) that say where and what; `data` and `parentSchema` when Ajv is `verbose`. */
export type SchemaErrorLike = Readonly<Pick<ErrorObject, 'instancePath' | 'keyword' | 'message' | 'params' | 'data' | 'parentSchema'>>;

/** Where a schema error points and what is wrong there, in the document's words (problem-words.ts). */
export interface ErrorField {
  /** JSON pointer of the field at fault, `/` for the value itself. */
  readonly pointer: string;
  readonly problem: string;
}

/** The most of a value sent, of a name sent, or of a list of allowed ones, a problem repeats: the answer stays small whatever was sent. */
const SHOWN_CHARS = 40;
const SHOWN_NAMES = 20;

/** A property name as a segment of a JSON pointer; a name sent (not one of the schema's) is cut to its head. */
export const escapePointer = (key: string): string => {
  const escaped = key.replace(/~/g, '~0').replace(/\//g, '~1');
  return escaped.length > SHOWN_CHARS ? `${escaped.slice(0, SHOWN_CHARS)}…` : escaped;
};

/** A value as a problem shows it: a string quoted and cut, an object or array by its kind. */
export function shownValue(value: unknown, words: ProblemWords): string {
  if (typeof value === 'string') return value.length > SHOWN_CHARS ? `${JSON.stringify(value.slice(0, SHOWN_CHARS))}…` : JSON.stringify(value);
  if (Array.isArray(value)) return words('arrayValue', { count: String(value.length) });
  if (value !== null && typeof value === 'object') return words('objectValue');
  return String(value);
}

/** A problem followed by what was sent (`sent`). */
export const withSent = (problem: string, value: unknown, words: ProblemWords): string => words('sent', { problem, value: shownValue(value, words) });

/** Allowed values or names, quoted, the first SHOWN_NAMES of them. */
export function shownList(values: readonly unknown[]): string {
  const shown = values.slice(0, SHOWN_NAMES).map((v) => JSON.stringify(v)).join(', ');
  return values.length > SHOWN_NAMES ? `${shown}, …` : shown;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The problem with what was sent, unless the value is a secret (`x-secret` on its schema) or there is none to show. */
function sent(problem: string, error: SchemaErrorLike, words: ProblemWords): string {
  const secret = isObject(error.parentSchema) && error.parentSchema['x-secret'] === true;
  return error.data === undefined || secret ? problem : withSent(problem, error.data, words);
}

/**
 * Names the field an error is about and what is allowed there: a missing or unexpected property
 * itself (Ajv reports those on the parent), an enum's or constant's values, and what was sent when
 * Ajv gives it (never a secret's).
 */
export function errorField(error: SchemaErrorLike, words: ProblemWords): ErrorField {
  const { instancePath, keyword, params } = error;
  if ((keyword === 'required' || keyword === 'dependentRequired') && typeof params.missingProperty === 'string') {
    return { pointer: `${instancePath}/${escapePointer(params.missingProperty)}`, problem: words('required') };
  }
  if (keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const properties = isObject(error.parentSchema) && isObject(error.parentSchema.properties) ? Object.keys(error.parentSchema.properties) : [];
    const problem = properties.length > 0 ? words('notAllowedListed', { allowed: shownList(properties) }) : words('notAllowed');
    return { pointer: `${instancePath}/${escapePointer(params.additionalProperty)}`, problem };
  }
  const pointer = instancePath || '/';
  if (keyword === 'enum' && Array.isArray(params.allowedValues)) return { pointer, problem: sent(words('oneOf', { values: shownList(params.allowedValues) }), error, words) };
  if (keyword === 'const' && 'allowedValue' in params) return { pointer, problem: sent(words('constant', { value: JSON.stringify(params.allowedValue) }), error, words) };
  // Ajv's own message for a SchemaError starts with the path; strip it, keep the wording.
  const prefix = `${instancePath || '(root)'} `;
  const raw = error.message ?? words('invalid');
  const message = raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
  return { pointer, problem: sent(message, error, words) };
}
