import type { ErrorObject } from 'ajv';
import { errorField, escapePointer, shownList, withSent, type ErrorField, type SchemaErrorLike } from './error-field.js';
import type { ProblemWords } from './problem-words.js';

/** An Ajv error as a `verbose` Ajv gives it: where in the schema it failed, and the keyword's value. */
export type VerboseError = SchemaErrorLike & Readonly<Pick<ErrorObject, 'schemaPath' | 'schema'>>;

/** The first problems of a value, and how many there are in all. */
export interface Problems {
  readonly listed: readonly ErrorField[];
  readonly count: number;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);
const under = (error: VerboseError, path: string) => error.schemaPath.startsWith(`${path}/`);
/** Whether an error is about the value at `pointer` or a value in it. */
const within = (error: VerboseError, pointer: string) => error.instancePath === pointer || error.instancePath.startsWith(`${pointer}/`);

/** The branch of a `oneOf` with a `discriminator` that the value's tag names, or -1. */
function taggedBranch(branches: readonly unknown[], tag: string, value: unknown): number {
  return branches.findIndex((branch) => {
    const property = isNode(branch) && isNode(branch.properties) ? branch.properties[tag] : undefined;
    return isNode(property) && (property.const === value || (Array.isArray(property.enum) && property.enum.includes(value)));
  });
}

/** The `required` lists of a `oneOf` whose every branch is only that (`exactly one of count and probability`), else undefined. */
function requiredOnly(branches: readonly unknown[]): string[][] | undefined {
  const lists = branches.map((b) => (isNode(b) && Object.keys(b).length === 1 && Array.isArray(b.required) ? (b.required as string[]) : undefined));
  return lists.every((l) => l !== undefined) ? (lists as string[][]) : undefined;
}

/** What stands in for a `oneOf` error: the problems it is, and which errors of its branches go. */
interface Resolution {
  readonly problems: ErrorField[];
  readonly drop: (error: VerboseError) => boolean;
}

/**
 * A failed `oneOf` as what to do: the branch a `discriminator`'s tag names (an unknown tag lists
 * them); branches that only require a field name the fields that cannot combine, or that one is
 * needed; else branches of the wrong type drop out, and the one left speaks, or the types are named.
 */
function resolveOneOf(error: VerboseError, branchErrors: readonly VerboseError[], words: ProblemWords): Resolution {
  const path = error.schemaPath;
  const pointer = error.instancePath || '/';
  const branches = Array.isArray(error.schema) ? error.schema : [];
  const all = { drop: (e: VerboseError) => under(e, path) };
  const tag = isNode(error.parentSchema) && isNode(error.parentSchema.discriminator) ? error.parentSchema.discriminator.propertyName : undefined;
  if (typeof tag === 'string' && isNode(error.data)) {
    const branch = taggedBranch(branches, tag, error.data[tag]);
    if (branch >= 0) return { problems: [], drop: (e) => under(e, path) && !under(e, `${path}/${branch}`) };
    const tags = branches.map((b) => (isNode(b) && isNode(b.properties) && isNode(b.properties[tag]) ? b.properties[tag].const : undefined)).filter((t) => t !== undefined);
    const allowed = words('oneOf', { values: shownList(tags) });
    const problem = error.data[tag] === undefined ? allowed : withSent(allowed, error.data[tag], words);
    return { ...all, problems: [{ pointer: `${error.instancePath}/${escapePointer(tag)}`, problem }] };
  }
  const required = requiredOnly(branches);
  if (required) {
    const passing = Array.isArray(error.params.passingSchemas) ? (error.params.passingSchemas as number[]) : [];
    const given = passing.flatMap((i) => required[i] ?? []);
    const problem =
      passing.length > 1
        ? words('combined', { fields: given.map((f) => JSON.stringify(f)).reduce((one, other) => words('both', { one, other })) })
        : words('exactlyOne', { fields: shownList(required.flat()) });
    return { ...all, problems: [{ pointer, problem }] };
  }
  const wrongType = (i: number) => branchErrors.some((e) => e.keyword === 'type' && e.instancePath === error.instancePath && e.schemaPath === `${path}/${i}/type`);
  const fitting = branches.map((_, i) => i).filter((i) => !wrongType(i));
  if (fitting.length === 1) return { problems: [], drop: (e) => under(e, path) && !under(e, `${path}/${fitting[0]}`) };
  if (fitting.length === 0) {
    const types = branchErrors.filter((e) => e.keyword === 'type' && e.instancePath === error.instancePath).map((e) => String(e.params.type));
    const allowed = words('types', { types: types.reduce((one, other) => words('either', { one, other })) });
    return { ...all, problems: [{ pointer, problem: withSent(allowed, error.data, words) }] };
  }
  const problem = Array.isArray(error.params.passingSchemas) ? words('severalForms') : words('noForm');
  return { problems: [{ pointer, problem }], drop: () => false };
}

/** A property name refused by `propertyNames`: the name is the field, its schema's words say what is allowed. */
function resolvePropertyName(error: VerboseError, nameErrors: readonly VerboseError[], words: ProblemWords): Resolution {
  const name = String(error.params.propertyName);
  const first = nameErrors[0];
  const rule = first ? errorField({ ...first, data: name }, words).problem : words('notAName');
  return { problems: [{ pointer: `${error.instancePath}/${escapePointer(name)}`, problem: words('badName', { rule }) }], drop: (e) => under(e, error.schemaPath) };
}

/** Where the errors of a `oneOf`'s (or `propertyNames`') branches start: Ajv writes them just before the keyword's own. */
function branchStart(errors: readonly VerboseError[], at: number): number {
  const keyword = errors[at]!;
  let start = at;
  while (start > 0 && under(errors[start - 1]!, keyword.schemaPath) && within(errors[start - 1]!, keyword.instancePath)) start--;
  return start;
}

/**
 * The problems of Ajv's errors for one value, at most `listed` of them, and their count: each as
 * errorField says it, a `oneOf` or `propertyNames` once as a whole, the same problem of a field once.
 */
export function schemaProblems(errors: readonly VerboseError[], listed: number, words: ProblemWords): Problems {
  const dropped = new Uint8Array(errors.length);
  const standIns = new Map<number, ErrorField[]>();
  errors.forEach((error, at) => {
    if (error.keyword !== 'oneOf' && error.keyword !== 'propertyNames') return;
    const start = branchStart(errors, at);
    const branches = errors.slice(start, at);
    const { problems, drop } = error.keyword === 'oneOf' ? resolveOneOf(error, branches, words) : resolvePropertyName(error, branches, words);
    branches.forEach((branchError, i) => {
      if (drop(branchError)) dropped[start + i] = 1;
    });
    standIns.set(at, problems);
  });
  const seen = new Set<string>();
  const problems: ErrorField[] = [];
  let count = 0;
  errors.forEach((error, at) => {
    if (dropped[at]) return;
    for (const field of standIns.get(at) ?? [errorField(error, words)]) {
      const key = `${field.pointer}\u0000${field.problem}`;
      if (seen.has(key)) continue;
      seen.add(key);
      count++;
      if (problems.length < listed) problems.push(field);
    }
  });
  return { listed: problems, count };
}
