/** The time source of everything that expires, limits or stamps: injected so tests never sleep. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to, for tests of expiry, ttl and rate limits. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function createManualClock(start = 1_756_500_000_000): ManualClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms), set: (ms) => void (t = ms) };
}
