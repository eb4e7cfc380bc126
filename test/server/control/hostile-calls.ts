import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createFake, type Fake } from '../../../src/fake/create-fake.js';
import type { Snapshot } from '../../../src/spec/control-types.js';
import type { RawAnswer } from '../../helpers/raw-http.js';
import { API, spec } from '../helpers.js';
import { controlSpec, expectControlConforms } from './helpers.js';

/** A token an attacker would plant to let itself in. */
export const PLANTED_TOKEN = '0badc0de-0000-4000-8000-000000000001';

const trap = {
  type: 'snmp-trap',
  agentId: '5867948233835d9661c50001',
  payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: 'planted', bindings: [] },
  entity: { entityId: '5867948233835d9661c5e001', entityType: 1, entityName: 'core-sw-01' },
};

export interface ControlCall {
  readonly operationId: string;
  readonly method: string;
  /** The path as the document writes it, with ids filled in. */
  readonly path: string;
  readonly body?: unknown;
}

/**
 * A call of every control operation that would change or read the state if it got through:
 * a valid body for each, and `faultId` the id of a fault that exists.
 */
export function everyControlCall(snapshot: Snapshot, faultId: string): ControlCall[] {
  const planted: Snapshot = {
    ...snapshot,
    users: snapshot.users.map((user, i) => (i === 0 ? { ...user, authenticationToken: PLANTED_TOKEN } : user)),
    eventLog: snapshot.eventLog.slice(0, 1),
  };
  const bodies: Record<string, unknown> = {
    addEventLogRecords: [trap],
    replaceEventLog: [trap],
    replaceBlockLog: [{ ip: '198.51.100.66', ttl: 60 }],
    importSnapshot: planted,
    updateConfig: { latencyMs: 7, authTokenEnabled: false },
    injectFault: { operationId: 'getCurrentUser', count: 5 },
  };
  return controlSpec.operations.map((op) => ({
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path.replace('{faultId}', faultId),
    ...(op.operationId in bodies ? { body: bodies[op.operationId] } : {}),
  }));
}

const escape = (char: string, lower: boolean) => {
  const hex = `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
  return lower ? hex : hex.toUpperCase();
};

/**
 * Spellings of a path that a router decoding percent-escapes takes for the path itself:
 * each letter (or underscore) escaped alone, in upper and lower case hex, and the whole
 * first segment escaped. Slashes stay, as `%2F` does not separate segments.
 */
export function encodedVariants(path: string): string[] {
  const variants = new Set<string>();
  [...path].forEach((char, i) => {
    if (char === '/') return;
    for (const lower of [false, true]) variants.add(path.slice(0, i) + escape(char, lower) + path.slice(i + 1));
  });
  const [, first = '', ...rest] = path.split('/');
  variants.add(['', [...first].map((c) => escape(c, false)).join(''), ...rest].join('/'));
  variants.add(['', [...first].map((c) => escape(c, true)).join(''), ...rest].join('/'));
  return [...variants];
}

/** The snapshot minus its time of taking: two of them are equal when the state is. */
const stateOf = (snapshot: Snapshot) => ({ ...snapshot, takenAt: 0 });

/** A listening fake with something for every control operation to change, and a call of each. */
export interface Target {
  readonly fake: Fake;
  readonly origin: string;
  readonly calls: readonly ControlCall[];
  /** Fails unless the state is as it was at the start and the planted token lets no one in. */
  expectUnchanged(): Promise<void>;
}

export async function startTarget(): Promise<Target> {
  const fake = await createFake({ spec, docs: false, records: 20 });
  const { origin } = await fake.listen();
  // Something for each clearing operation to clear.
  await fake.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: 'viewer-password' } });
  const fault = await fake.injectFault({ operationId: 'getEventLog', count: 3 });
  const before = await fake.snapshot();
  return {
    fake,
    origin,
    calls: everyControlCall(before, fault.id),
    async expectUnchanged() {
      expect(stateOf(await fake.snapshot())).toEqual(stateOf(before));
      expect((await fake.inject({ url: `${API}/users/current?api-token=${PLANTED_TOKEN}` })).statusCode).toBe(401);
    },
  };
}

/** The call's body as JSON text with its Content-Type, or nothing. */
export const jsonOf = (call: ControlCall): { headers?: Record<string, string>; body?: string } =>
  call.body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) };

/** The answer is the control document's 403 for the operation, with this message. */
export function expectRefused(call: ControlCall, path: string, answer: RawAnswer | LightMyRequestResponse, message: string): void {
  expect(answer.statusCode, `${call.method} ${path}: ${answer.body}`).toBe(403);
  expect(JSON.parse(answer.body)).toEqual({ status: 403, code: 'PERMISSION_DENIED', message });
  expectControlConforms(call.operationId, answer as LightMyRequestResponse);
}
