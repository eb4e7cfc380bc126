// Every field of the spec's tables, one at a time, gets another JSON type in a real answer of
// the fake (a proxy rewrites it): the run finds a violation on the operation that answered.
// A detail the document chose (an ObjectId pattern, a field it adds) broken the same way is a note.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.js';
import type { RunResult } from '../../../src/contract/run/results.js';
import { loadSpec } from '../../../src/spec/index.js';
import { SPEC_TABLES, type SpecTable } from '../../spec/spec-tables.js';
import { startBreakingProxy, type Breakage } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from '../helpers/fake.js';

type Json = Record<string, unknown>;

const spec = await loadSpec();
let fake: ListeningFake;

beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.app.fake.state.reset());

/** The objects of a body that a table describes. */
function targets(body: unknown, at: SpecTable['answer']['at']): Json[] {
  const items = Array.isArray(body) ? (body as Json[]) : [];
  if (at === 'body') return [body as Json];
  if (at === 'items') return items;
  if (at === 'items.payload') return items.filter((r) => r.type === 'snmp-trap').map((r) => r.payload as Json);
  return items.map((r) => r.entity as Json);
}

/** Rewrites the answers of one operation: `change` runs on every object the table describes. */
function rewrite(operationId: string, at: SpecTable['answer']['at'], change: (target: Json, index: number) => void): Breakage {
  const op = spec.operation(operationId);
  return {
    response: (request, response) => {
      if (request.method !== op.method.toUpperCase() || request.url.pathname !== op.path || response.status !== 200) return response;
      const body = JSON.parse(response.body) as unknown;
      targets(body, at).forEach(change);
      return { ...response, body: JSON.stringify(body) };
    },
  };
}

/** A value of another JSON type than the spec's. */
function otherType(type: string, value: unknown): unknown {
  if (type === 'string') return 12345;
  if (type === 'integer') return String(value ?? 1);
  return 'not an object';
}

// The least of the suite that reads each operation: preflight reads the users; the permission
// check of the payload update reads the event log; the block-log group reads the block log.
const GROUPS: Record<string, string[]> = { getCurrentUser: [], getEventLog: ['permissions'], getLimitBlockLog: ['limit-block-log'] };

async function runThrough(breakage: Breakage): Promise<RunResult> {
  const proxy = await startBreakingProxy(fake.url, breakage);
  try {
    return await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 5, groups: [...new Set(Object.values(GROUPS).flat())] });
  } finally {
    await proxy.close();
  }
}

const schemaFindings = (result: RunResult, operationId: string) =>
  result.outcomes.filter((o) => o.operationId === operationId && o.check === 'response-schema').flatMap((o) => o.failures);

describe('each field of the spec tables with another JSON type is a violation', () => {
  for (const [record, table] of Object.entries(SPEC_TABLES)) {
    const { operationId, at } = table.answer;
    for (const [field, type] of Object.entries(table.fields)) {
      if (type === null) continue;
      it(`${record}.${field} (${type}) → response-schema violation on ${operationId}`, async () => {
        let changed = 0;
        const result = await runThrough(
          rewrite(operationId, at, (target, index) => {
            // Present fields change type; a field no record has is added (to the first) with a wrong type.
            if (field in target || index === 0) {
              target[field] = otherType(type, target[field]);
              changed += 1;
            }
          }),
        );
        expect(changed).toBeGreaterThan(0);
        const violations = schemaFindings(result, operationId).filter((f) => f.verdict === 'violation');
        expect(violations.map((f) => f.citation), JSON.stringify(schemaFindings(result, operationId))).toContainEqual(
          expect.objectContaining({ source: 'spec', ref: '2', text: expect.stringMatching(new RegExp(`^${field} is an? ${type}\\b`)) }),
        );
        expect(violations.some((f) => f.message.includes(`/${field} must be`))).toBe(true);
        expect(result.exitCode).toBe(1);
      });
    }
  }
});

describe('a detail the document chose, broken in a real answer, is a note', () => {
  it('an _id that is not an ObjectId (getEventLog)', async () => {
    const result = await runThrough(rewrite('getEventLog', 'items', (r, i) => void (r._id = `record-${i}`)));
    const findings = schemaFindings(result, 'getEventLog');
    expect(findings.length).toBeGreaterThan(0);
    expect(new Set(findings.map((f) => `${f.verdict} ${f.citation.ref}`))).toEqual(
      new Set(['note components/schemas/SnmpTrapRecord/properties/_id', 'note components/schemas/MqttMessageRecord/properties/_id']),
    );
  });

  it('a user record without the permissions the document adds (getCurrentUser)', async () => {
    const result = await runThrough(rewrite('getCurrentUser', 'body', (u) => void delete u.permissions));
    const findings = schemaFindings(result, 'getCurrentUser');
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) {
      expect(finding).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill', ref: 'components/schemas/User/properties/permissions' } });
      expect(finding.message).toBe("(root) must have required property 'permissions'");
    }
    expect(result.violations).toBe(0);
  });

  it('a blocked request with a negative ttl (getLimitBlockLog)', async () => {
    const result = await runThrough(rewrite('getLimitBlockLog', 'items', (r) => void (r.ttl = -5)));
    const findings = schemaFindings(result, 'getLimitBlockLog');
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) expect(finding).toMatchObject({ verdict: 'note', citation: { ref: 'components/schemas/BlockedRequest/properties/ttl' } });
    expect(result.violations).toBe(0);
  });
});
