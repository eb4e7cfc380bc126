// Reads contracts/*.yaml, validates each file against the case format and the document, and
// turns any problem into a usage error that names the file and the field.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { createAjv } from '../../spec/ajv.js';
import { packageRoot, type Spec } from '../../spec/index.js';
import { resolveCitation } from '../citations.js';
import { UsageError } from '../errors.js';
import { BUILT_INS, caseFileSchema, type ContractCase, type CaseStep, type Requirement } from './case-schema.js';
import { variablesIn } from './template.js';

export const defaultCasesDir = join(packageRoot, 'contracts');

const validateFile = createAjv().compile(caseFileSchema);

/** `/createSession/0/steps/2/expect` → `createSession[0].steps[2].expect`. */
function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, token) => (/^\d+$/.test(token) ? `${out}[${token}]` : out ? `${out}.${token}` : token), '');
}

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
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /\.ya?ml$/.test(n)).sort();
  } catch {
    return [];
  }
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
