import { afterEach, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import { createSpecValidator, type Spec } from '../../../src/spec/index.js';
import type { RequestRecord } from '../../../src/spec/control-types.js';
import { API, basicOf, conformanceCheck, expectConforms, spec } from '../helpers.js';
import { controlCopy } from './control-copy.js';

// How much of the answers' bodies the journal keeps is the control document's: the head of a
// body as long as RequestRecord's `responseText` `maxLength`, and `x-journal-max-length`
// characters of bodies in all. Copies of the document that say other numbers are obeyed; one
// that lacks a bound stops the fake from being built.

let app: FakeApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const PAGE = `${API}/event-log?limit=20&sortDirection=asc`;

/** The journal through `GET /__control/requests`, the answer checked against the control document the fake was built with. */
async function journalOf(controlSpec: Spec): Promise<RequestRecord[]> {
  const response = await app!.inject({ url: '/__control/requests' });
  conformanceCheck(createSpecValidator(controlSpec))('listRequests', response);
  return JSON.parse(response.body) as RequestRecord[];
}

describe("the journal's bounds on bodies", () => {
  it('are those the control document states: a copy with a head of 300 and 800 in all keeps two heads of 300 of three pages', async () => {
    const controlSpec = await controlCopy([
      { key: 'maxLength', was: 32768, now: 300 },
      { key: 'x-journal-max-length', was: 2097152, now: 800 },
    ]);
    app = await buildFake({ spec, controlSpec, docs: false, records: 50 });
    const pages = [];
    for (let i = 0; i < 3; i++) {
      const page = await app.inject({ url: `${PAGE}&n=${i}`, headers: basicOf('viewer') });
      expectConforms('getEventLog', page);
      expect(page.rawPayload.length).toBeGreaterThan(300);
      pages.push(page.rawPayload);
    }
    const [third, second, first] = await journalOf(controlSpec);
    // 3 heads of 300 and their URLs (about 50 characters each) pass 800: the oldest head is dropped.
    expect(first).toMatchObject({ id: 1, responseBodyDropped: true });
    expect(first).not.toHaveProperty('responseText');
    expect(second).toMatchObject({ id: 2, responseBodyTruncated: true, responseText: pages[1]!.subarray(0, 300).toString() });
    expect(third).toMatchObject({ id: 3, responseBodyTruncated: true, responseText: pages[2]!.subarray(0, 300).toString() });
  });

  it.each([
    ['x-journal-max-length', 2097152],
    ['x-max-journal-size', 100000],
    ['maxLength', 32768],
  ])('stop the fake from being built when the document states no %s', async (key, was) => {
    const controlSpec = await controlCopy([{ key, was, now: undefined }]);
    await expect(buildFake({ spec, controlSpec, docs: false, records: 20 })).rejects.toThrow(key);
  });
});
