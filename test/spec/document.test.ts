import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { controlApiPath, createAjv, createSpecValidator, errorCatalog, loadSpec, monitoringApiPath } from '../../src/spec/index.js';
import { documentExamples, errorExamples } from '../helpers/openapi-examples.js';

const spec = await loadSpec();
const validator = createSpecValidator(spec);
const doc = spec.document;

describe('the OpenAPI document', () => {
  // loadSpec only dereferences the kit's own documents; this is where they are validated.
  it('passes swagger-parser\'s OpenAPI 3.1 validation, as does the control document', async () => {
    for (const path of [monitoringApiPath, controlApiPath]) {
      const validated = (await SwaggerParser.validate(path)) as { openapi: string };
      expect(validated.openapi, path).toBe('3.1.0');
    }
  });

  it('is validated when it is not the kit\'s own: a broken copy is refused', async () => {
    const { mkdtemp, readFile, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const copy = join(await mkdtemp(join(tmpdir(), 'spec-')), 'broken.yaml');
    const text = await readFile(monitoringApiPath, 'utf8');
    await writeFile(copy, text.replace(/^openapi: 3\.1\.0$/m, 'openapi: 3.1.0\nunexpectedTopLevel: true'));
    await expect(loadSpec(copy)).rejects.toThrow(/schema validation failed/i);
  });

  it('is loaded as swagger-parser dereferences it', async () => {
    expect(spec.document).toEqual(await SwaggerParser.dereference(monitoringApiPath));
    expect((await loadSpec(controlApiPath)).document).toEqual(await SwaggerParser.dereference(controlApiPath));
  });

  it('is loaded once per process: the same Spec each time', async () => {
    expect(await loadSpec()).toBe(spec);
    expect(await loadSpec(monitoringApiPath)).toBe(spec);
  });

  it('is OpenAPI 3.1.0 with a base_url server variable defaulting to the fake', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers?.[0]?.url).toBe('{base_url}');
    expect(doc.servers?.[0]?.variables?.base_url?.default).toBe('http://127.0.0.1:4010');
  });

  // The fake's validators skip the meta-schema check for the kit's documents (schemasChecked):
  // this is the check, with an Ajv that does it.
  it('compiles every component schema under JSON Schema 2020-12 in strict mode, checked against the meta-schema', () => {
    expect(spec.schemasChecked).toBe(true);
    const ajv = createAjv(doc);
    expect(() => ajv.compile({ type: 'integer', minimum: 'zero' }), 'the check can fail').toThrow(/schema is invalid/);
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      expect(() => ajv.compile(schema as object), name).not.toThrow();
    }
  });

  it('gives every operation an operationId, summary, description and a source', () => {
    for (const op of spec.operations) {
      expect(op.summary, op.operationId).not.toBe('');
      expect(op.raw.description, op.operationId).toBeTruthy();
      // Each operation either comes from a spec section or is marked as an extension with a reason.
      expect(op.specSection !== undefined || (op.extension && op.gapFill !== undefined), op.operationId).toBe(true);
    }
  });

  it('has an example for every request body and every response with content, each valid', () => {
    const { examples, missing } = documentExamples(spec);
    expect(missing).toEqual([]);
    expect(examples.length).toBeGreaterThan(30);
    for (const { where, schema, value } of examples) {
      expect(validator.validate(schema, value), where).toEqual([]);
    }
  });

  it('rejects values that break its schemas, so the example check can fail', () => {
    expect(validator.validateNamed('User', { login: 'x', permissions: [] })).not.toEqual([]);
    expect(validator.validateNamed('EventLogRecord', { _id: 'nope', type: 'snmp-trap' })).not.toEqual([]);
    expect(validator.validateNamed('Error', { status: 400, code: 'NOT_A_CODE', message: 'x' })).not.toEqual([]);
  });

  it('documents a 4xx error with the Error schema on every operation', () => {
    const errorSchema = doc.components?.schemas?.Error;
    for (const op of spec.operations) {
      const errors = Object.entries(op.responses).filter(([status]) => status.startsWith('4'));
      expect(errors.length, op.operationId).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        expect(response.content?.['application/json']?.schema, `${op.operationId} ${status}`).toBe(errorSchema);
      }
      expect(op.responses['429'], `${op.operationId} documents the rate-limit answer`).toBeDefined();
      if (op.security.length > 0) expect(op.responses['401'], `${op.operationId} documents 401`).toBeDefined();
      if (op.permissions.length > 0) expect(op.responses['403'], `${op.operationId} documents 403`).toBeDefined();
    }
  });

  it('keeps the named error list consistent: unique codes, 4xx/5xx statuses, each status it uses documented', () => {
    const catalog = errorCatalog(doc);
    expect(catalog.size).toBeGreaterThan(10);
    for (const entry of catalog.values()) {
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.description).not.toBe('');
    }
    // Each example error body in the document uses a code whose status matches the body's status.
    for (const { where, status, body } of errorExamples(spec)) {
      expect(body.status, where).toBe(status);
      expect(catalog.get(body.code)?.status, `${where} ${body.code}`).toBe(status);
    }
  });
});
