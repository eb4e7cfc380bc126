// A table written by hand from monitoring-api.md (sections 2, 4 and 5), checked against
// the document, so that the document cannot drift from the source specification.
import { describe, expect, it } from 'vitest';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadSpec, responseSpecView, specView, type Schema } from '../../src/spec/index.js';
import { SPEC_TABLES } from './spec-tables.js';

const spec = await loadSpec();
const schemas = spec.document.components?.schemas as Record<string, Schema>;

interface SpecParam {
  name: string;
  in: 'path' | 'query';
  type: 'string' | 'integer' | 'boolean';
  required?: boolean;
  enum?: string[];
  default?: unknown;
}
interface SpecOperation {
  section: string;
  method: string;
  path: string;
  params: SpecParam[];
  permissions: string[];
  bodyFields?: Record<string, string>;
}

const OPERATIONS: SpecOperation[] = [
  { section: '4.1', method: 'post', path: '/node/api/users/{id}/auth-token', permissions: ['manage-users'],
    params: [{ name: 'id', in: 'path', type: 'string', required: true }] },
  { section: '4.2', method: 'get', path: '/node/api/users/current', permissions: [], params: [] },
  { section: '4.3', method: 'post', path: '/node/api/users/session', permissions: [], params: [],
    bodyFields: { login: 'string', password: 'string' } },
  { section: '4.4', method: 'get', path: '/node/api/event-log', permissions: [], params: [
    { name: 'filter', in: 'query', type: 'string' },
    { name: 'from', in: 'query', type: 'integer' },
    { name: 'to', in: 'query', type: 'integer' },
    { name: 'inverse', in: 'query', type: 'boolean' },
    { name: 'limit', in: 'query', type: 'string' },
    { name: 'skip', in: 'query', type: 'string' },
    { name: 'sortDirection', in: 'query', type: 'string', enum: ['asc', 'desc'], default: 'asc' },
    { name: 'sortField', in: 'query', type: 'string' },
    { name: 'type', in: 'query', type: 'string', enum: ['1', '2'] },
  ] },
  { section: '4.5', method: 'patch', path: '/node/api/event-log/{id}/payload', permissions: ['manage-event-log'],
    params: [{ name: 'id', in: 'path', type: 'string', required: true }], bodyFields: { text: 'string' } },
  { section: '4.6', method: 'get', path: '/node/api/limit-block-log', permissions: ['manage-users'], params: [
    { name: 'from', in: 'query', type: 'integer' },
    { name: 'to', in: 'query', type: 'integer' },
    { name: 'limit', in: 'query', type: 'integer' },
    { name: 'skip', in: 'query', type: 'integer' },
    { name: 'ip', in: 'query', type: 'boolean', default: false },
    { name: 'login', in: 'query', type: 'boolean', default: false },
    { name: 'uri', in: 'query', type: 'boolean', default: false },
    { name: 'user', in: 'query', type: 'boolean', default: false },
  ] },
];

describe('the document against the spec, operation by operation', () => {
  for (const expected of OPERATIONS) {
    describe(`${expected.section} ${expected.method.toUpperCase()} ${expected.path}`, () => {
      const op = spec.operations.find((o) => o.method === expected.method && o.path === expected.path);

      it('exists, names its spec section and its permissions', () => {
        expect(op).toBeDefined();
        expect(op?.specSection).toBe(expected.section);
        expect(op?.permissions).toEqual(expected.permissions);
      });

      it('has exactly the spec parameters, with their location, type, enum and default', () => {
        const actual = (op?.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
        expect(actual.map((p) => `${p.in}:${p.name}`).sort()).toEqual(expected.params.map((p) => `${p.in}:${p.name}`).sort());
        for (const want of expected.params) {
          const got = actual.find((p) => p.name === want.name && p.in === want.in);
          expect(got?.schema.type, want.name).toBe(want.type);
          expect(got?.required === true, `${want.name} required`).toBe(want.required === true);
          if (want.enum) expect(got?.schema.enum, want.name).toEqual(want.enum);
          if (want.default !== undefined) expect(got?.schema.default, want.name).toEqual(want.default);
        }
      });

      if (expected.bodyFields) {
        it('takes a JSON body with the spec fields', () => {
          const body = op?.requestBody?.schema;
          expect(body?.type).toBe('object');
          for (const [field, type] of Object.entries(expected.bodyFields ?? {})) {
            expect((body?.properties?.[field] as Schema | undefined)?.type, field).toBe(type);
          }
        });
      }
    });
  }

  it('4.1 is authenticated with Basic credentials only', () => {
    expect(spec.operation('createAuthToken').security).toEqual([{ basicAuth: [] }]);
  });

  it('4.3 needs no authentication (it is how a session starts)', () => {
    expect(spec.operation('createSession').security).toEqual([]);
  });

  it('the real API extensions are there and marked as such', () => {
    const ext = spec.operations.filter((o) => o.extension).map((o) => `${o.method} ${o.path}`).sort();
    expect(ext).toEqual(['delete /node/api/users/session', 'delete /node/api/users/{id}/auth-token']);
  });
});

describe('the records of spec section 2', () => {
  for (const [record, { schemas: names, fields, optional }] of Object.entries(SPEC_TABLES)) {
    for (const name of names) {
      it(`${record} (${name}) has every spec field with its type`, () => {
        const schema = schemas[name];
        expect(schema, name).toBeDefined();
        for (const [field, type] of Object.entries(fields)) {
          const prop = schema?.properties?.[field] as Schema | undefined;
          expect(prop, `${name}.${field}`).toBeDefined();
          if (type) expect(prop?.type, `${name}.${field}`).toBe(type);
        }
        if (optional?.length === Object.keys(fields).length) expect(schema?.required ?? []).toEqual([]);
      });

      it(`${record} (${name}): the document's spec view is exactly the spec's table`, () => {
        const view = specView(schemas[name] as Schema) as Schema;
        expect(view.type).toBe('object');
        const properties = view.properties as Record<string, Schema>;
        expect(Object.keys(properties).sort()).toEqual(Object.keys(fields).sort());
        for (const [field, type] of Object.entries(fields)) {
          expect(properties[field]?.type, `${name}.${field}`).toBe(type ?? undefined);
          expect(properties[field]?.['x-spec-section' as keyof Schema], `${name}.${field}`).toBe('2');
        }
        const required = Object.keys(fields).filter((f) => !(optional ?? []).includes(f));
        expect([...(view.required ?? [])].sort()).toEqual(required.sort());
      });
    }
  }

  it('the SNMP trap record type value is snmp-trap', () => {
    expect((schemas.SnmpTrapRecord?.properties?.type as Schema).const).toBe('snmp-trap');
  });

  it('the spec view keeps no format, pattern, enum, const or bound of the document', () => {
    const text = JSON.stringify(specView(schemas.SnmpTrapRecord as Schema));
    for (const keyword of ['format', 'pattern', 'enum', 'minimum', 'maxLength', 'additionalProperties']) expect(text).not.toContain(`"${keyword}"`);
  });

  it('answers whose body the spec describes (4.2, 4.4, 4.6) have a spec view; "not shown" ones (4.1, 4.3, errors) have none', () => {
    const described = spec.operations.flatMap((op) =>
      Object.entries(op.responses).filter(([, r]) => responseSpecView(r) !== undefined).map(([status]) => `${op.operationId} ${status}`),
    );
    expect(described.sort()).toEqual(['getCurrentUser 200', 'getEventLog 200', 'getLimitBlockLog 200']);
  });
});

describe('the authentication methods of spec section 5', () => {
  const schemes = spec.document.components?.securitySchemes as Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  it('Basic access authentication', () => {
    expect(schemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
  });
  it('a session cookie', () => {
    expect(schemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie' });
  });
  it('an api-token query parameter', () => {
    expect(schemes.apiToken).toMatchObject({ type: 'apiKey', in: 'query', name: 'api-token' });
  });
});
