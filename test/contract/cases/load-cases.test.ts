import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCasesDir, loadCaseFile, loadCases } from '../../../src/contract/cases/load-cases.js';
import { fill, variablesIn } from '../../../src/contract/cases/case-values.js';
import { UsageError } from '../../../src/contract/errors.js';
import { specAndValidator } from '../helpers/synthetic.js';

function caseFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cases-'));
  const path = join(dir, 'bad.yaml');
  writeFileSync(path, text);
  return path;
}

async function loadError(text: string): Promise<string> {
  const { spec } = await specAndValidator();
  try {
    await loadCaseFile(caseFile(text), spec, 'contracts/bad.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('the file loaded');
}

const step = `
      - name: read
        operationId: getCurrentUser
        expect: { status: 200 }`;

describe('the kit\'s own cases', () => {
  it('load and name operations of the document', async () => {
    const { spec } = await specAndValidator();
    const cases = await loadCases(defaultCasesDir, spec);
    expect(cases.map((c) => c.name)).toEqual(
      expect.arrayContaining(['session-flow', 'unknown-login-refused', 'token-flow', 'token-for-unknown-user', 'update-unknown-record']),
    );
    const flow = cases.find((c) => c.name === 'session-flow');
    expect(flow?.operationId).toBe('createSession');
    expect(flow?.steps.map((s) => s.operationId)).toEqual(['createSession', 'getCurrentUser', 'deleteSession', 'getCurrentUser']);
    expect(cases.find((c) => c.name === 'token-flow')?.requires).toEqual(['writes', 'low-user']);
  });
});

describe('a bad case file is a usage error naming the file and the field', () => {
  it('a field of the wrong type', async () => {
    expect(await loadError(`getCurrentUser:\n  - name: x\n    steps:\n      - name: read\n        operationId: getCurrentUser\n        expect: { status: ok }\n`)).toMatch(
      /^contracts\/bad\.yaml: getCurrentUser\[0\]\.steps\[0\]\.expect\.status: /,
    );
  });
  it('an unknown field', async () => {
    const message = await loadError(`getCurrentUser:\n  - name: x\n    stepz: []\n`);
    expect(message).toMatch(/^contracts\/bad\.yaml: getCurrentUser\[0\]: /);
    expect(message).toContain('getCurrentUser[0]: must NOT have additional properties "stepz"');
  });
  it('an operationId the document does not have', async () => {
    expect(await loadError(`getCurrentUser:\n  - name: x\n    steps:\n      - name: read\n        operationId: getUsers\n        expect: { status: 200 }\n`)).toBe(
      'contracts/bad.yaml: getCurrentUser[0].steps[0].operationId: "getUsers" is not an operationId of the document',
    );
    expect(await loadError(`listUsers:\n  - name: x\n    steps:${step}\n`)).toMatch(/listUsers: "listUsers" is not an operationId/);
  });
  it('a variable nobody captured', async () => {
    const text = `getCurrentUser:\n  - name: x\n    steps:${step}\n      - name: again\n        operationId: getCurrentUser\n        cookies: { sid: '{{sdi}}' }\n        expect: { status: 200 }\n`;
    expect(await loadError(text)).toBe('contracts/bad.yaml: getCurrentUser[0].steps[1].cookies.sid: unknown variable "sdi" (not built in, not captured by an earlier step)');
  });
  it('a citation that points nowhere, and a low-privilege step without the requirement', async () => {
    expect(await loadError(`getCurrentUser:\n  - name: x\n    steps:${step}\n        cite: components/schemas/Nope\n`)).toMatch(/steps\[0\]\.cite: "components\/schemas\/Nope" is neither/);
    expect(await loadError(`getCurrentUser:\n  - name: x\n    steps:${step}\n        as: low\n`)).toMatch(/steps\[0\]\.as: a step as the low-privilege user needs/);
  });
  it('YAML that does not parse', async () => {
    expect(await loadError('getCurrentUser: [\n')).toMatch(/^contracts\/bad\.yaml: /);
  });
});

describe('templates', () => {
  it('fills whole values as they are and interpolates the rest', () => {
    const vars = new Map<string, unknown>([['n', 5], ['login', 'admin']]);
    expect(fill({ a: '{{n}}', b: 'user {{login}} #{{n}}', c: ['{{login}}'], d: '{{missing}}' }, vars)).toEqual({ a: 5, b: 'user admin #5', c: ['admin'], d: '{{missing}}' });
    expect(variablesIn({ q: { x: '{{a}}-{{b}}' }, l: ['{{c}}'] })).toEqual([
      { name: 'a', at: 'q.x' },
      { name: 'b', at: 'q.x' },
      { name: 'c', at: 'l[0]' },
    ]);
  });
});
