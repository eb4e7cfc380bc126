import { describe, expect, it } from 'vitest';
import { controlApiPath, createAjv, createSpecValidator, errorCatalog, loadSpec, type Schema } from '../../src/spec/index.js';
import { documentExamples, errorExamples } from '../helpers/openapi-examples.js';

const control = await loadSpec(controlApiPath);
const main = await loadSpec();
const validator = createSpecValidator(control);
const doc = control.document as typeof control.document & Record<string, unknown>;
const schemas = doc.components?.schemas ?? {};
const mainSchema = (name: string) => main.document.components?.schemas?.[name];

describe('the control API document', () => {
  it('is OpenAPI 3.1.0, marked loopback-only, with every path under /__control', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc['x-loopback-only']).toBe(true);
    expect(doc.info.description).toMatch(/loopback only/i);
    for (const path of Object.keys(doc.paths ?? {})) expect(path).toMatch(/^\/__control\//);
  });

  it('has these operations', () => {
    expect(control.operations.map((op) => `${op.operationId} ${op.method.toUpperCase()} ${op.path}`).sort()).toEqual(
      [
        'resetState POST /__control/reset',
        'addEventLogRecords POST /__control/event-log',
        'replaceEventLog PUT /__control/event-log',
        'clearEventLog DELETE /__control/event-log',
        'replaceBlockLog PUT /__control/block-log',
        'clearBlockLog DELETE /__control/block-log',
        'exportSnapshot GET /__control/snapshot',
        'importSnapshot PUT /__control/snapshot',
        'listSessions GET /__control/sessions',
        'clearSessions DELETE /__control/sessions',
        'listBlocks GET /__control/blocks',
        'clearBlocks DELETE /__control/blocks',
        'getConfig GET /__control/config',
        'updateConfig PATCH /__control/config',
        'listRequests GET /__control/requests',
        'clearRequests DELETE /__control/requests',
        'listFaults GET /__control/faults',
        'injectFault POST /__control/faults',
        'clearFaults DELETE /__control/faults',
        'deleteFault DELETE /__control/faults/{faultId}',
        'getIngestCounts GET /__control/ingest',
      ].sort(),
    );
  });

  it('shares no operationId with the monitoring API, and targets faults at exactly its operations', () => {
    const mainIds = main.operations.map((op) => op.operationId);
    for (const op of control.operations) expect(mainIds, op.operationId).not.toContain(op.operationId);
    expect([...((schemas.TargetOperationId as Schema).enum ?? [])].sort()).toEqual([...mainIds].sort());
  });

  it('compiles every component schema under JSON Schema 2020-12 in strict mode, checked against the meta-schema', () => {
    const ajv = createAjv(control.document);
    for (const [name, schema] of Object.entries(schemas)) {
      expect(() => ajv.compile(schema as object), name).not.toThrow();
    }
  });

  it('has an example for every request body and every response with content, each valid', () => {
    const { examples, missing } = documentExamples(control);
    expect(missing).toEqual([]);
    expect(examples.length).toBeGreaterThan(25);
    for (const { where, schema, value } of examples) {
      expect(validator.validate(schema, value), where).toEqual([]);
    }
  });

  it("answers errors with the monitoring API's Error body and codes, 403 on every operation", () => {
    const catalog = errorCatalog(main.document);
    for (const { where, status, body } of errorExamples(control)) {
      expect(body.status, where).toBe(status);
      expect(catalog.get(body.code)?.status, `${where} ${body.code}`).toBe(status);
    }
    for (const op of control.operations) {
      for (const [status, response] of Object.entries(op.responses).filter(([s]) => s.startsWith('4'))) {
        expect(response.content?.['application/json']?.schema, `${op.operationId} ${status}`).toEqual(mainSchema('Error'));
      }
      expect(op.responses['403']?.content?.['application/json']?.example, op.operationId).toMatchObject({ code: 'PERMISSION_DENIED' });
    }
  });

  it("returns and snapshots records in the monitoring API's own EventLogRecord schema", () => {
    type ArraySchema = { items?: unknown };
    const added = control.operation('addEventLogRecords').responses['201']?.content?.['application/json']?.schema as ArraySchema;
    expect(added.items).toEqual(mainSchema('EventLogRecord'));
    expect(((schemas.Snapshot as Schema).properties?.eventLog as ArraySchema).items).toEqual(mainSchema('EventLogRecord'));
  });

  it('gives each rate-limit preset valid rules, and examples naming a preset carry exactly its rules', () => {
    const preset = schemas.RateLimitPreset as Schema & { 'x-preset-rules': Record<string, unknown[]> };
    const rules = preset['x-preset-rules'];
    expect(Object.keys(rules).sort()).toEqual([...(preset.enum ?? [])].sort());
    for (const [name, list] of Object.entries(rules)) {
      expect(validator.validateNamed('RateLimitRules', list), name).toEqual([]);
      expect(list.length, name).toBeGreaterThan(0);
    }
    const settings: { preset: string; rules: unknown }[] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (typeof n.preset === 'string' && Array.isArray(n.rules)) settings.push(n as { preset: string; rules: unknown });
      Object.values(n).forEach(walk);
    };
    for (const { value } of documentExamples(control).examples) walk(value);
    expect(settings.length).toBeGreaterThan(2);
    for (const s of settings.filter((s) => s.preset !== 'custom')) expect(s.rules, s.preset).toEqual(rules[s.preset]);
  });

  it('takes records without _id and timestamp, and refuses what breaks its schemas', () => {
    const trap = {
      type: 'snmp-trap',
      agentId: 'a',
      payload: { senderAddress: '192.0.2.1', trapOid: '1.3.6.1.6.3.1.1.5.1', bindings: [], text: 'coldStart' },
      entity: { entityId: 'e', entityType: 1, entityName: 'sw' },
    };
    expect(validator.validateNamed('EventLogRecordInput', trap)).toEqual([]);
    expect(validator.validateNamed('EventLogRecordInput', { ...trap, agentId: undefined })).not.toEqual([]);
    expect(validator.validateNamed('EventLogRecordInput', { ...trap, extra: 1 })).not.toEqual([]);
    expect(validator.validateNamed('EventLogRecordInput', { ...trap, type: 'mqtt-message' })).not.toEqual([]);
    expect(validator.validateNamed('FaultSpec', { operationId: 'getEventLog', count: 1, probability: 0.5 })).not.toEqual([]);
    expect(validator.validateNamed('FaultSpec', { operationId: 'getEventLog' })).not.toEqual([]);
    expect(validator.validateNamed('FaultSpec', { operationId: 'resetState', count: 1 })).not.toEqual([]);
    expect(validator.validateNamed('ConfigUpdate', {})).not.toEqual([]);
    expect(validator.validateNamed('ConfigUpdate', { rateLimit: { preset: 'lenient', rules: [] } })).not.toEqual([]);
    expect(
      validator.validateNamed('SessionSummary', { maskedId: '7b9d2b27-a47d-4bbe-a2f7-2c63bf356db0', userId: '5867948233835d9661c56dc8', login: 'a', createdAt: 1, lastUsedAt: 1 }),
    ).not.toEqual([]);
  });
});
