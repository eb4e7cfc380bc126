import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { monitoringApiPath } from '../../src/spec/index.js';

// Read the raw file: after dereferencing, a gap-fill of a shared component would appear many times.
const raw = parse(readFileSync(monitoringApiPath, 'utf8')) as Record<string, unknown>;

function gapFills(node: unknown, path: string[] = [], out = new Map<string, unknown>()): Map<string, unknown> {
  if (node === null || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-gap-fill') out.set(path.join('/'), value);
    else gapFills(value, [...path, key], out);
  }
  return out;
}

const all = gapFills(raw);

describe('gap-fills', () => {
  it('each is one sentence: what the spec leaves open, then what the document chose', () => {
    expect(all.size).toBeGreaterThan(20);
    for (const [where, sentence] of all) {
      expect(typeof sentence, where).toBe('string');
      expect(sentence, where).toMatch(/^The spec [^;]+; .*\bthe (document|fake)\b.*\.$/);
      expect((sentence as string).split(/\.\s+[A-Z]/).length, `${where} is one sentence`).toBe(1);
    }
  });

  // The choices the spec forces on any description of it ("not shown"), by where they live.
  const required: Record<string, string> = {
    'response of 4.1': 'paths//node/api/users/{id}/auth-token/post/responses/200',
    'response of 4.3': 'paths//node/api/users/session/post/responses/200',
    'response of 4.5': 'paths//node/api/event-log/{id}/payload/patch/responses/204',
    'error bodies': 'components/schemas/Error',
    'status and error codes': 'components/schemas/ErrorCode',
    'time unit of timestamp': 'components/schemas/Timestamp',
    'MQTT payload': 'components/schemas/MqttMessagePayload',
    'structure of bindings': 'components/schemas/SnmpVarbind',
    'accepted payload fields of 4.5': 'components/schemas/PayloadUpdate',
    'answer to a blocked request': 'components/responses/TooManyRequests',
    'answer to missing credentials': 'components/responses/Unauthorized',
    'the filter language': 'paths//node/api/event-log/get/parameters/0',
    'inverse with sortDirection': 'paths//node/api/event-log/get/parameters/3',
    'page size': 'paths//node/api/event-log/get/parameters/4',
    'default sort field': 'paths//node/api/event-log/get/parameters/7',
    'permission of 4.2': 'paths//node/api/users/current/get',
    'permission of 4.4': 'paths//node/api/event-log/get',
    'session cookie name': 'components/securitySchemes/sessionCookie',
  };
  it('marks the rule for several credentials in one request, on UNAUTHENTICATED', () => {
    const codes = ((raw.components as any).schemas.ErrorCode.oneOf as { const: string }[]).map((entry) => entry.const);
    const where = `components/schemas/ErrorCode/oneOf/${codes.indexOf('UNAUTHENTICATED')}`;
    expect(all.get(where), where).toMatch(/every credential sent.*valid and to name the same user/);
  });

  for (const [what, where] of Object.entries(required)) {
    it(`marks ${what}`, () => {
      expect(all.has(where), where).toBe(true);
    });
  }
});
