// A table written by hand from monitoring-api.md (sections 2, 4 and 5), checked against
// the document, so that the document cannot drift from the source specification.
import { describe, expect, it } from 'vitest';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadSpec, type Schema } from '../../src/spec/index.js';

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

// Section 2: record name -> field -> JSON type. `null` stands for "structure elided".
const RECORDS: Record<string, { schemas: string[]; fields: Record<string, string | null>; allOptional?: boolean }> = {
  User: { schemas: ['User'], fields: { id: 'string', login: 'string', authenticationToken: 'string' } },
  'Event log record': {
    schemas: ['SnmpTrapRecord', 'MqttMessageRecord'],
    fields: { _id: 'string', type: 'string', agentId: 'string', payload: 'object', timestamp: 'integer', entity: 'object' },
  },
  'SNMP trap payload': {
    schemas: ['SnmpTrapPayload'],
    fields: { senderAddress: 'string', bindings: null, trapOid: 'string', text: 'string' },
  },
  Entity: { schemas: ['Entity'], fields: { entityId: 'string', entityType: 'integer', entityName: 'string' } },
  'Blocked request': {
    schemas: ['BlockedRequest'], allOptional: true,
    fields: { ip: 'string', login: 'string', timestamp: 'integer', ttl: 'integer', uri: 'string', user: 'string' },
  },
};

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
  for (const [record, { schemas: names, fields, allOptional }] of Object.entries(RECORDS)) {
    for (const name of names) {
      it(`${record} (${name}) has every spec field with its type`, () => {
        const schema = schemas[name];
        expect(schema, name).toBeDefined();
        for (const [field, type] of Object.entries(fields)) {
          const prop = schema?.properties?.[field] as Schema | undefined;
          expect(prop, `${name}.${field}`).toBeDefined();
          if (type) expect(prop?.type, `${name}.${field}`).toBe(type);
        }
        if (allOptional) expect(schema?.required ?? []).toEqual([]);
      });
    }
  }

  it('the SNMP trap record type value is snmp-trap', () => {
    expect((schemas.SnmpTrapRecord?.properties?.type as Schema).const).toBe('snmp-trap');
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
