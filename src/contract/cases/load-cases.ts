// The declarative cases of contracts/*.yaml: their schema, loaded and checked against the document.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { createAjv } from '../../spec/ajv.js';
import { packageRoot, type Spec } from '../../spec/index.js';
import { resolveCitation } from '../checks/check.js';
import type { Call } from '../client/api-client.js';
import { UsageError } from '../errors.js';
import { variablesIn } from './case-values.js';

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const status = { type: 'integer', minimum: 100, maximum: 599 } as const;
const capture = (source: string) =>
  ({ type: 'object', required: [source], additionalProperties: false, properties: { [source]: { type: 'string' } } }) as const;

export const caseFileSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Contract cases, keyed by the operationId they are about',
  type: 'object',
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9]*$' },
  additionalProperties: { type: 'array', minItems: 1, items: { $ref: '#/$defs/case' } },
  $defs: {
    case: {
      type: 'object',
      required: ['name', 'steps'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
        description: { type: 'string' },
        requires: { type: 'array', uniqueItems: true, items: { enum: ['writes', 'low-user', 'token'] } },
        steps: { type: 'array', minItems: 1, items: { $ref: '#/$defs/step' } },
      },
    },
    step: {
      type: 'object',
      required: ['name', 'operationId', 'expect'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 },
        operationId: { type: 'string' },
        as: { enum: ['admin', 'low', 'anonymous'] },
        auth: { enum: ['none', 'basic', 'session', 'token', 'auth-token'] },
        path: stringMap,
        query: stringMap,
        headers: stringMap,
        cookies: stringMap,
        body: {},
        rawBody: { type: 'string' },
        contentType: { type: 'string' },
        expect: {
          type: 'object',
          required: ['status'],
          additionalProperties: false,
          properties: { status: { anyOf: [status, { type: 'array', minItems: 1, items: status }] }, body: {} },
        },
        capture: { type: 'object', additionalProperties: { oneOf: [capture('body'), capture('cookie'), capture('header')] } },
        cite: { type: 'string', description: 'An operationId or a document location (components/securitySchemes/apiToken) whose x-spec-section or x-gap-fill decides the verdict.' },
      },
    },
  },
} as const;

export type Requirement = 'writes' | 'low-user' | 'token';

export type Capture = { readonly body: string } | { readonly cookie: string } | { readonly header: string };

/** A case's step: what it sends, as the client's call takes it, and what it expects. */
export interface CaseStep extends Pick<Call, 'path' | 'query' | 'headers' | 'cookies' | 'body' | 'rawBody'> {
  readonly name: string;
  readonly operationId: string;
  readonly as?: 'admin' | 'low' | 'anonymous';
  readonly auth?: 'none' | 'basic' | 'session' | 'token' | 'auth-token';
  readonly contentType?: string;
  readonly expect: { readonly status: number | readonly number[]; readonly body?: unknown };
  readonly capture?: Readonly<Record<string, Capture>>;
  readonly cite?: string;
}

export interface ContractCase {
  /** The file it came from, for messages. */
  readonly file: string;
  /** The operation the case is about (its key in the file). */
  readonly operationId: string;
  readonly name: string;
  readonly description?: string;
  readonly requires: readonly Requirement[];
  readonly steps: readonly CaseStep[];
}

/** Variables every case may use besides its captures. */
export const BUILT_INS = ['admin.login', 'admin.password', 'admin.id', 'low.login', 'low.password', 'low.id', 'seed', 'unknownId'] as const;

export const defaultCasesDir = join(packageRoot, 'contracts');

const validateFile = createAjv().compile(caseFileSchema);

/** `/createSession/0/steps/2/expect` → `createSession[0].steps[2].expect`. */
const fieldOf = (pointer: string): string =>
  pointer.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.').replace(/^\./, '').replace(/~1/g, '/').replace(/~0/g, '~');

function describeError(e: ErrorObject): string {
  const field = fieldOf(e.instancePath) || '(top level)';
  const extra = e.params.additionalProperty ? ` "${String(e.params.additionalProperty)}"` : e.params.allowedValues ? `: ${(e.params.allowedValues as unknown[]).join(', ')}` : '';
  return `${field}: ${e.message ?? 'is invalid'}${extra}`;
}

function checkAgainstDocument(file: string, raw: Record<string, { name: string; requires?: Requirement[]; description?: string; steps: CaseStep[] }[]>, spec: Spec): ContractCase[] {
  const cases: ContractCase[] = [];
  const bad = (field: string, message: string): never => {
    throw new UsageError(`${file}: ${field}: ${message}`);
  };
  const ids = new Set(spec.operations.map((o) => o.operationId));
  for (const [operationId, list] of Object.entries(raw)) {
    if (!ids.has(operationId)) bad(operationId, `"${operationId}" is not an operationId of the document`);
    for (const [i, c] of list.entries()) {
      const known = new Set<string>(BUILT_INS);
      for (const [j, step] of c.steps.entries()) {
        const where = `${operationId}[${i}].steps[${j}]`;
        if (!ids.has(step.operationId)) bad(`${where}.operationId`, `"${step.operationId}" is not an operationId of the document`);
        const { capture, name: _name, ...used } = step;
        for (const v of variablesIn(used)) if (!known.has(v.name)) bad(`${where}.${v.at}`, `unknown variable "${v.name}" (not built in, not captured by an earlier step)`);
        if (step.as === 'low' && !(c.requires ?? []).includes('low-user')) bad(`${where}.as`, 'a step as the low-privilege user needs `requires: [low-user]` on its case');
        if ((step.auth === 'token' || step.auth === 'auth-token') && (step.as ?? 'admin') === 'admin' && !(c.requires ?? []).includes('token')) {
          bad(`${where}.auth`, "a step with the administrator's token needs `requires: [token]` on its case");
        }
        if (step.cite && !resolveCitation(spec, step.cite)) bad(`${where}.cite`, `"${step.cite}" is neither an operationId nor a document location with x-spec-section or x-gap-fill`);
        for (const name of Object.keys(capture ?? {})) known.add(name);
      }
      cases.push({ file, operationId, name: c.name, description: c.description, requires: c.requires ?? [], steps: c.steps });
    }
  }
  return cases;
}

export async function loadCaseFile(path: string, spec: Spec, shownAs = path): Promise<ContractCase[]> {
  let raw: unknown;
  try {
    raw = parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${shownAs}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (!validateFile(raw)) {
    const errors = validateFile.errors ?? [];
    const plain = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf');
    const messages = [...new Set((plain.length > 0 ? plain : errors).map(describeError))].slice(0, 3);
    throw new UsageError(`${shownAs}: ${messages.join('; ') || 'is not a case file'}`);
  }
  return checkAgainstDocument(shownAs, raw as Parameters<typeof checkAgainstDocument>[1], spec);
}

/** All cases of a folder, files in name order. A missing folder has no cases. */
export async function loadCases(dir: string, spec: Spec): Promise<ContractCase[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /\.ya?ml$/.test(n)).sort();
  const all: ContractCase[] = [];
  for (const name of names) {
    const path = join(dir, name);
    all.push(...(await loadCaseFile(path, spec, relative(process.cwd(), path) || name)));
  }
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.name)) throw new UsageError(`${c.file}: ${c.operationId}: the case name "${c.name}" is used twice`);
    seen.add(c.name);
  }
  return all;
}
