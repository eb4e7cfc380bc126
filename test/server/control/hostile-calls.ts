import type { Snapshot } from '../../../src/spec/control-types.js';
import { controlSpec } from './helpers.js';

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
export const stateOf = (snapshot: Snapshot) => ({ ...snapshot, takenAt: 0 });
