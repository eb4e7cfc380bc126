// The field tables of monitoring-api.md section 2, written by hand from the spec: record name ->
// the document's schemas for it, and each field's JSON type (`null`: listed, structure elided).
export interface SpecTable {
  readonly schemas: readonly string[];
  readonly fields: Readonly<Record<string, string | null>>;
  /** Fields the spec says may be absent ("if one exists", "each field may be absent"). */
  readonly optional?: readonly string[];
  /** The operation whose answer carries these records, and how to reach them in its body. */
  readonly answer: { readonly operationId: string; readonly at: 'body' | 'items' | 'items.payload' | 'items.entity' };
}

export const SPEC_TABLES: Readonly<Record<string, SpecTable>> = {
  User: {
    schemas: ['User'],
    fields: { id: 'string', login: 'string', authenticationToken: 'string' },
    optional: ['authenticationToken'],
    answer: { operationId: 'getCurrentUser', at: 'body' },
  },
  'Event log record': {
    schemas: ['SnmpTrapRecord', 'MqttMessageRecord'],
    fields: { _id: 'string', type: 'string', agentId: 'string', payload: 'object', timestamp: 'integer', entity: 'object' },
    answer: { operationId: 'getEventLog', at: 'items' },
  },
  'SNMP trap payload': {
    schemas: ['SnmpTrapPayload'],
    fields: { senderAddress: 'string', bindings: null, trapOid: 'string', text: 'string' },
    answer: { operationId: 'getEventLog', at: 'items.payload' },
  },
  Entity: {
    schemas: ['Entity'],
    fields: { entityId: 'string', entityType: 'integer', entityName: 'string' },
    answer: { operationId: 'getEventLog', at: 'items.entity' },
  },
  'Blocked request': {
    schemas: ['BlockedRequest'],
    fields: { ip: 'string', login: 'string', timestamp: 'integer', ttl: 'integer', uri: 'string', user: 'string' },
    optional: ['ip', 'login', 'timestamp', 'ttl', 'uri', 'user'],
    answer: { operationId: 'getLimitBlockLog', at: 'items' },
  },
};
