import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { PAGE_CHUNK_BYTES } from '../../src/server/body.js';
import { controlSpec } from './control/helpers.js';
import { listJournal, statedBodyLimits } from './journal/helpers.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// The same data twice: one fake streams every answer of more than 10 items, the other none.
const RECORDS = 3_000;
const JOURNAL_BODY_LIMITS = statedBodyLimits(controlSpec.document);
const streaming = await buildFake({ spec, docs: false, records: RECORDS, streamPagesOver: 10 });
const whole = await buildFake({ spec, docs: false, records: RECORDS, streamPagesOver: Infinity });
afterAll(async () => {
  await streaming.close();
  await whole.close();
});

const get = async (app: typeof streaming, operationId: string, url: string) => {
  const response = await app.inject({ url, headers: basicOf('admin') });
  expectConforms(operationId, response);
  expect(response.statusCode, response.body).toBe(200);
  return response;
};
const enc = (filter: object) => encodeURIComponent(JSON.stringify(filter));

describe('a long page answered as a stream', () => {
  it('is the same bytes as the page written at once, for every kind of query of both logs', async () => {
    const queries: [string, string][] = [
      ['getEventLog', `${API}/event-log`],
      ['getEventLog', `${API}/event-log?sortDirection=desc`],
      ['getEventLog', `${API}/event-log?type=2&sortField=agentId&inverse=true`],
      ['getEventLog', `${API}/event-log?filter=${enc({ type: 'snmp-trap' })}&skip=7&limit=1500`],
      ['getEventLog', `${API}/event-log?limit=11`],
      ['getLimitBlockLog', `${API}/limit-block-log`],
      ['getLimitBlockLog', `${API}/limit-block-log?ip=true`],
    ];
    for (const [operationId, url] of queries) {
      const streamed = await get(streaming, operationId, url);
      const written = await get(whole, operationId, url);
      expect(streamed.rawPayload.equals(written.rawPayload), url).toBe(true);
      expect((JSON.parse(streamed.body) as unknown[]).length, url).toBeGreaterThan(10);
      // Streamed: chunked transfer, no length known up front; written at once: its length.
      expect(streamed.headers['content-length'], url).toBeUndefined();
      expect(streamed.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(written.headers['content-length'], url).toBe(String(written.rawPayload.length));
    }
    const all = await get(streaming, 'getEventLog', `${API}/event-log`);
    expect(all.rawPayload.length, 'the whole log takes many chunks').toBeGreaterThan(10 * PAGE_CHUNK_BYTES);
  });

  it('is not used for a page of at most streamPagesOver items: the usual page is one text with its length', async () => {
    const page = await get(streaming, 'getEventLog', `${API}/event-log?limit=10`);
    expect(page.headers['content-length']).toBe(String(page.rawPayload.length));
    expect(JSON.parse(page.body)).toHaveLength(10);
    const byDefault = await buildFake({ spec, docs: false, records: 100 });
    try {
      const usual = await get(byDefault, 'getEventLog', `${API}/event-log?limit=50`);
      expect(usual.headers['content-length']).toBe(String(usual.rawPayload.length));
    } finally {
      await byDefault.close();
    }
  });

  it('is kept in the request journal as any answer is: the head of a long body, a short body whole', async () => {
    const long = await get(streaming, 'getEventLog', `${API}/event-log?sortDirection=desc`);
    const short = await get(streaming, 'getEventLog', `${API}/event-log?limit=11`);
    expect(long.rawPayload.length).toBeGreaterThan(JOURNAL_BODY_LIMITS.perBody);
    expect(short.rawPayload.length).toBeLessThan(JOURNAL_BODY_LIMITS.perBody);
    const [shortEntry, longEntry] = await listJournal(streaming, '?limit=2');
    expect(shortEntry).toMatchObject({ operationId: 'getEventLog', status: 200, responseBody: JSON.parse(short.body) });
    expect(shortEntry).not.toHaveProperty('responseBodyTruncated');
    // The head is counted in bytes of the answer as sent, as for an answer written at once.
    expect(longEntry).toMatchObject({ status: 200, responseBodyTruncated: true, responseText: long.rawPayload.subarray(0, JOURNAL_BODY_LIMITS.perBody).toString() });
    await get(whole, 'getEventLog', `${API}/event-log?sortDirection=desc`);
    const [writtenEntry] = await listJournal(whole, '?limit=1');
    expect(writtenEntry, 'the same as the journal of the page written at once').toMatchObject({ responseBodyTruncated: true, responseText: longEntry?.responseText });
  });
});
