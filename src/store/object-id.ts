import { randomBytes } from 'node:crypto';

/**
 * MongoDB ObjectIds (the field notes: 24 lowercase hex characters): 4 bytes of seconds,
 * 5 bytes fixed per generator, 3 bytes of counter, so ids sort roughly by creation time.
 */
export function formatObjectId(seconds: number, machine: Uint8Array, counter: number): string {
  if (machine.length !== 5) throw new Error('an ObjectId needs 5 machine bytes');
  const time = (Math.floor(seconds) >>> 0).toString(16).padStart(8, '0');
  const middle = Buffer.from(machine).toString('hex');
  const count = (counter & 0xffffff).toString(16).padStart(6, '0');
  return time + middle + count;
}

/** A generator of unique ids; pass `machine` bytes (e.g. from a seeded source) for repeatable ids. */
export function createObjectIdGenerator(machine: Uint8Array = randomBytes(5), firstCounter = 0) {
  let counter = firstCounter;
  return (timestampMs: number): string => formatObjectId(timestampMs / 1000, machine, counter++);
}
