import { afterEach, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import { API, basicOf, expectConforms, spec } from '../helpers.js';
import { controlCopy } from './control-copy.js';
import { listJournal } from './helpers.js';

// How many requests the journal keeps by default is the control document's
// `x-default-journal-size`: a copy of the document that says another number is obeyed, and one
// that says none stops the fake from being built.

/** The fake's control document with the journal's default size replaced (or, for undefined, taken out). */
const controlDocumentSaying = (size: number | undefined) => controlCopy([{ key: 'x-default-journal-size', was: 1000, now: size }]);

let app: FakeApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function askFiveTimes(): Promise<void> {
  for (let i = 0; i < 5; i++) expectConforms('getCurrentUser', await app!.inject({ url: `${API}/users/current?n=${i}`, headers: basicOf('admin') }));
}

describe("the journal's default size", () => {
  it("is the control document's x-default-journal-size", async () => {
    app = await buildFake({ spec, controlSpec: await controlDocumentSaying(2), docs: false, records: 20 });
    await askFiveTimes();
    expect((await listJournal(app)).map((r) => r.id)).toEqual([5, 4]);
  });

  it('gives way to the journalSize option', async () => {
    app = await buildFake({ spec, controlSpec: await controlDocumentSaying(2), docs: false, records: 20, journalSize: 3 });
    await askFiveTimes();
    expect((await listJournal(app)).map((r) => r.id)).toEqual([5, 4, 3]);
  });

  it('stops the fake from being built when the document states none', async () => {
    const controlSpec = await controlDocumentSaying(undefined);
    await expect(buildFake({ spec, controlSpec, docs: false, records: 20 })).rejects.toThrow('x-default-journal-size');
  });
});
