/** The time source of everything that expires, limits or stamps: injected so tests never sleep. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to, for tests of expiry, ttl and rate limits. */
export type ManualClock = ReturnType<typeof createManualClock>;

export function createManualClock(start = 1_756_500_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number): void => void (t += ms), set: (ms: number): void => void (t = ms) };
}
