import { randomBytes } from 'node:crypto';

/**
 * MongoDB ObjectIds (the field notes: 24 lowercase hex characters): 4 bytes of seconds,
 * 5 bytes fixed per generator, 3 bytes of counter, so ids sort roughly by creation time.
 */
export function formatObjectId(seconds: number, machine: Uint8Array, counter: number): string {
  if (machine.length !== 5) throw new Error('an ObjectId needs 5 machine bytes');
  // One flat string from one buffer: millions of ids stay small (no concatenated pieces).
  const bytes = Buffer.allocUnsafe(12);
  bytes.writeUInt32BE(Math.floor(seconds) >>> 0, 0);
  bytes.set(machine, 4);
  bytes.writeUIntBE(counter & 0xffffff, 9, 3);
  return bytes.toString('hex');
}

/** A generator of unique ids; pass `machine` bytes (e.g. from a seeded source) for repeatable ids. */
export function createObjectIdGenerator(machine: Uint8Array = randomBytes(5), firstCounter = 0) {
  let counter = firstCounter;
  return (timestampMs: number): string => formatObjectId(timestampMs / 1000, machine, counter++);
}
