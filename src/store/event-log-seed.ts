import type { EventLogRecord } from '../spec/types.js';
import { indexRecords, type EventLogIndex } from './event-log-index.js';
import { workInTurns, type WorkInTurns } from './work-in-turns.js';

// The making of the event log's seed, apart from the store's data operations: a large seed (a
// million generated records take seconds) is made when first needed, in turns of the event loop,
// so that a server answers meanwhile; the store gets the index once it is made.

/**
 * Records of the seed made and indexed per turn of the event loop: about 10 to 15 ms of work
 * (some 7 µs a record, generating and indexing), less than a query's slice. It is also the
 * threshold up to which a seed is made at once, in the call that first needs it: the default
 * 1,000 records take a few ms, too little to be worth turns, and the first answer stays synchronous.
 */
export const SEED_SLICE = 2_000;

/**
 * A seed made when first needed: all at once (an array), or a slice at a time (an iterator
 * whose each step makes about `sliceSize` more records, in order) so that it can be spread
 * over turns of the event loop. Called once.
 */
export type SeedMaker = (sliceSize: number) => readonly EventLogRecord[] | Iterator<readonly EventLogRecord[]>;

/** The seed could not be made: `reason` says why (what the making threw). */
export class SeedFailedError extends Error {
  override readonly name = 'SeedFailedError';
  constructor(readonly reason: string, options?: ErrorOptions) {
    super(`The event log's records could not be made (${reason}).`, options);
  }
}

/** Where the seed is: not made yet, being made in turns, made, or failed (for good: it is never half used). */
export type SeedStatus = 'pending' | 'making' | 'ready' | 'failed';

/** The seed's slices, the maker called on the first step (so that what it throws fails the making). */
function* slicesOf(seed: SeedMaker): Generator<readonly EventLogRecord[], void, undefined> {
  const made = seed(SEED_SLICE);
  if (Array.isArray(made)) yield made as readonly EventLogRecord[];
  else for (let step = (made as Iterator<readonly EventLogRecord[]>).next(); step.done !== true; step = (made as Iterator<readonly EventLogRecord[]>).next()) yield step.value;
}

/**
 * One seed's making, from the function that makes it to its index (handed to `onMade`, once)
 * or its failure. Its records must be known to be usable, as generated ones are.
 */
export class SeedMaking {
  /** The seed while it is not made yet: the function that makes it. */
  #pending: SeedMaker | undefined;
  /** The seed while it is being made, and the promise of its end. */
  #making: { readonly work: WorkInTurns; readonly done: Promise<void>; readonly fail: (error: Error) => void } | undefined;
  /** Why the seed could not be made: every use of the log throws it from then on. */
  #failure: { readonly error: Error; readonly done: Promise<never> } | undefined;
  /** The calls waiting for the records (see whenMade), in the order they came. */
  #waiting: { readonly run: () => void; readonly fail: (error: Error) => void }[] = [];
  readonly #adopt: boolean;
  readonly #onMade: (index: EventLogIndex) => void;

  /** `adopt`: the seed records are frozen in place instead of copied. */
  constructor(seed: SeedMaker, adopt: boolean, onMade: (index: EventLogIndex) => void) {
    this.#pending = seed;
    this.#adopt = adopt;
    this.#onMade = onMade;
  }

  get status(): SeedStatus {
    if (this.#failure) return 'failed';
    if (this.#making) return 'making';
    return this.#pending === undefined ? 'ready' : 'pending';
  }

  /**
   * Nothing when the records are made; else a promise of their end, the making begun if it was
   * not (its first turn now: a seed of up to SEED_SLICE records is then made). Meanwhile other
   * callbacks run between turns; callers waiting on the promise resume in the order they came,
   * after every call waiting through `whenMade`.
   * It rejects, and so does every later call, when the making failed or was stopped.
   */
  ready(): Promise<void> | undefined {
    this.#begin()?.go(true);
    return this.#failure?.done ?? this.#making?.done;
  }

  /** As `ready`, but the first turn too goes after the current callback (e.g. once a server listens). */
  makeInBackground(): Promise<void> | undefined {
    this.#begin()?.go(false);
    return this.#failure?.done ?? this.#making?.done;
  }

  /**
   * Calls `run` once the records are made, the making begun if it was not: at once when they
   * are, else right after the store gets them, in the turn that ends the making or in the call
   * that forces it (`finish`), before any other code. Calls waiting meet the records in the order
   * they came, and a caller that forces the making comes after all of them. `fail` instead when
   * the making fails or is stopped. Neither may throw.
   */
  whenMade(run: () => void, fail: (error: Error) => void): void {
    this.#begin()?.go(true);
    if (this.#failure) return fail(this.#failure.error);
    if (this.#making === undefined) return run();
    this.#waiting.push({ run, fail });
  }

  /**
   * `use`'s result once the records are made: at once when they are (a seed of up to SEED_SLICE
   * records is made now), else a promise of it. While they are being made, calls wait in the order
   * they came, a reset among them (see EventLogStore.reset), and meet the records in that order as
   * soon as they are made, before any other code; so a write keeps its place before or after a
   * reset. When the making fails or is stopped, the promise rejects with `failed` of its error
   * (default: the error).
   */
  use<T>(use: () => T, failed: (error: Error) => unknown = (error) => error): T | Promise<Awaited<T>> {
    if (this.ready() === undefined) return use();
    return new Promise<Awaited<T>>((resolve, reject) => {
      const run = () => {
        try {
          resolve(use() as Awaited<T>);
        } catch (error) {
          reject(error);
        }
      };
      this.whenMade(run, (error) => reject(failed(error)));
    });
  }

  /** Stops a making that is going on (e.g. the server closes): `reason` is then every use's error. */
  stop(reason: Error): void {
    const making = this.#making;
    if (making === undefined) return;
    making.work.stop();
    making.fail(reason);
  }

  /** Makes the seed at once if it is still to be made, for a caller that cannot wait; throws when it failed. */
  finish(): void {
    this.#begin()?.finish();
    if (this.#failure) throw this.#failure.error;
  }

  /** The making going on, begun from the pending seed if there is one. */
  #begin(): WorkInTurns | undefined {
    const seed = this.#pending;
    if (seed !== undefined) {
      this.#pending = undefined;
      let resolve = () => {};
      let reject: (error: Error) => void = () => {};
      const done = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
      done.catch(() => {}); // failing unawaited is no unhandled rejection: it is kept in #failure
      const fail = (error: Error) => {
        this.#making = undefined;
        this.#failure = { error, done: done as Promise<never> };
        for (const waiting of this.#takeWaiting()) waiting.fail(error);
        reject(error);
      };
      const end = (index: EventLogIndex) => {
        this.#making = undefined;
        this.#onMade(index);
        for (const waiting of this.#takeWaiting()) waiting.run();
        resolve();
      };
      const failed = (cause: unknown) => fail(new SeedFailedError(cause instanceof Error ? cause.message : String(cause), { cause }));
      this.#making = { work: workInTurns(indexRecords(slicesOf(seed), this.#adopt, SEED_SLICE), SEED_SLICE, end, failed), done, fail };
    }
    return this.#making?.work;
  }

  #takeWaiting() {
    const waiting = this.#waiting;
    this.#waiting = [];
    return waiting;
  }
}
