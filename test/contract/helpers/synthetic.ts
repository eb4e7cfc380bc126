// Synthetic exchanges for unit tests of checks: no HTTP, just what a check would see.
import { createSpecValidator, loadSpec, type MqttMessageRecord, type SnmpTrapRecord, type Spec, type SpecValidator } from '../../../src/spec/index.js';
import { createCredentialsSeen } from '../../../src/contract/client/credentials.js';
import type { AuthMode, CheckContext, Exchange, Failure, Inconclusive, Judgement } from '../../../src/contract/types.js';

let loaded: { spec: Spec; validator: SpecValidator } | undefined;

export async function specAndValidator(): Promise<{ spec: Spec; validator: SpecValidator }> {
  if (!loaded) {
    const spec = await loadSpec();
    loaded = { spec, validator: createSpecValidator(spec) };
  }
  return loaded;
}

export interface SyntheticResponse {
  status: number;
  body?: unknown;
  /** Raw body text; wins over `body`. */
  text?: string;
  headers?: Record<string, string>;
}

export function exchange(operationId: string, response: SyntheticResponse | undefined, auth: AuthMode = 'basic', url = 'http://127.0.0.1/x'): Exchange {
  const text = response?.text ?? (response?.body === undefined ? '' : JSON.stringify(response.body));
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {
    key: 'test',
    operationId,
    actor: auth === 'none' ? 'anonymous' : 'admin',
    auth,
    request: { method: 'GET', url, headers: {} },
    response: response && {
      status: response.status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...response.headers },
      body: text,
      json,
    },
  };
}

export async function context(): Promise<CheckContext> {
  const { spec, validator } = await specAndValidator();
  return { spec, validator, credentials: createCredentialsSeen(spec).seen };
}

const hex = (n: number, width = 24): string => n.toString(16).padStart(width, '0');

export function trap(n: number, overrides: Partial<SnmpTrapRecord> = {}): SnmpTrapRecord {
  return {
    _id: `5867948233835d96${hex(n, 8)}`,
    type: 'snmp-trap',
    agentId: `agent-${n % 3}`,
    timestamp: 1_756_497_678_000 + n * 1000,
    payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: `trap ${n}`, bindings: [] },
    entity: { entityId: hex(0xe000 + n), entityType: 1, entityName: `device-${n}` },
    ...overrides,
  };
}

export function mqtt(n: number, overrides: Partial<MqttMessageRecord> = {}): MqttMessageRecord {
  return {
    _id: `5867948233835d96${hex(n, 8)}`,
    type: 'mqtt-message',
    agentId: `agent-${n % 3}`,
    timestamp: 1_756_497_678_000 + n * 1000,
    payload: { topic: 'sensors/rack-4/temperature', message: '{"celsius":41.5}', qos: 1 },
    entity: { entityId: hex(0xe000 + n), entityType: 2, entityName: `sensor-${n}` },
    ...overrides,
  };
}

/** Records 1..n, alternating traps and MQTT messages, in ascending timestamp order. */
export function records(n: number): (SnmpTrapRecord | MqttMessageRecord)[] {
  return Array.from({ length: n }, (_, i) => (i % 3 === 2 ? mqtt(i + 1) : trap(i + 1)));
}

/** The failures a check found; an inconclusive judgement fails the test (use `judged` to see it). */
export function found(judgement: Judgement): readonly Failure[] {
  if (!Array.isArray(judgement)) throw new Error(`the check could not judge: ${(judgement as Inconclusive).inconclusive}`);
  return judgement;
}
