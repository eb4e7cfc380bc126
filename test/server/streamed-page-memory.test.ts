import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { createFake } from '../../src/fake/create-fake.js';
import type { EventLogRecord } from '../../src/spec/types.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// A page of about 25 MB of JSON text: far more than the kernel buffers for a reader that stopped.
const RECORDS = 40_000;
// What the reader takes before it stops: the records of its first megabytes have been sent.
const READ_BEFORE_STOPPING = 2 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const fake = await createFake({ spec, docs: false, records: RECORDS });
const { origin } = await fake.listen();
afterAll(() => fake.close());

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Collects garbage until `ref` is freed or a few rounds have gone by. Each collection comes a turn
 * after the last look at `ref`: a WeakRef's target is kept until the end of the turn that read it.
 */
async function collect(ref: WeakRef<object>): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await turn();
    gc();
    await turn();
    if (ref.deref() === undefined) return;
  }
}

describe('a streamed page read slowly', () => {
  it('holds, after a reset, only the old records it has not sent yet', async () => {
    const { events } = fake.app.fake.state.data;
    // Records that only the log holds (copies, not the seed's), which a reset then takes away.
    events.restore(events.snapshot().map((record) => structuredClone(record)));
    const ids = events.snapshot().map((record) => record._id);
    const sent = new WeakRef(events.get(ids[1_000]!)!);
    const unsent = new WeakRef(events.get(ids.at(-1)!)!);

    const { hostname, port } = new URL(origin);
    const req = request({ host: hostname, port, path: `${API}/event-log`, headers: basicOf('viewer'), agent: false });
    req.end();
    // A failed expectation must not leave the connection open (the fake's close would wait for it).
    onTestFailed(() => void req.destroy());
    const [response] = (await once(req, 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    let received = 0;
    let holding = true;
    const stopped = new Promise<void>((resolve) => {
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (holding && received >= READ_BEFORE_STOPPING) {
          response.pause();
          resolve();
        }
      });
    });
    await stopped;

    await fake.reset();
    await collect(sent);
    expect(sent.deref(), 'a record already sent is freed').toBeUndefined();
    expect(unsent.deref(), 'a record still to send is kept').toBeDefined();

    const ended = once(response, 'end');
    holding = false;
    response.resume();
    await ended;
    const answer = { statusCode: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') };
    expectConforms('getEventLog', answer as unknown as LightMyRequestResponse);
    expect(answer.statusCode).toBe(200);
    expect((JSON.parse(answer.body) as EventLogRecord[]).map((record) => record._id)).toEqual(ids);
  });
});
