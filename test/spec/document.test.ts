import { describe, expect, it } from 'vitest';
import { createSpecValidator, errorCatalog, loadSpec } from '../../src/spec/index.js';
import { documentExamples, errorExamples } from '../helpers/openapi-examples.js';

const spec = await loadSpec();
const validator = createSpecValidator(spec);
const doc = spec.document;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with a base_url server variable defaulting to the fake', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers?.[0]?.url).toBe('{base_url}');
    expect(doc.servers?.[0]?.variables?.base_url?.default).toBe('http://127.0.0.1:4010');
  });

  it('compiles every component schema under JSON Schema 2020-12 in strict mode', () => {
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      expect(() => validator.ajv.compile(schema as object), name).not.toThrow();
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
