import { randomBytes } from 'node:crypto';

const HEX_DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Writes `value`'s lowest `digits` hex digits into `codes`, ending before `end`. */
function writeHex(codes: number[], end: number, digits: number, value: number): void {
  let rest = value;
  for (let i = end - 1; i >= end - digits; i--) {
    codes[i] = HEX_DIGITS[rest & 15] as number;
    rest >>>= 4;
  }
}

/**
 * A generator of unique MongoDB ObjectIds (24 lowercase hex): 4 bytes of seconds, 5 fixed per
 * generator (seeded `machine` bytes give repeatable ids), 3 of counter. Each id is one flat string
 * made from character codes, so millions of them stay small.
 */
export function createObjectIdGenerator(machine: Uint8Array = randomBytes(5), firstCounter = 0): (timestampMs: number) => string {
  const codes = new Array<number>(24).fill(0);
  machine.forEach((byte, i) => writeHex(codes, 10 + 2 * i, 2, byte));
  let counter = firstCounter;
  return (timestampMs) => {
    writeHex(codes, 8, 8, Math.floor(timestampMs / 1000) >>> 0);
    writeHex(codes, 24, 6, counter++ & 0xffffff);
    return String.fromCharCode.apply(null, codes);
  };
}
