// Generated cases within a time budget, replayable from the run's seed: fast-check draws them,
// stops at the first failing one and shrinks it to the smallest that still fails. One failure
// a search: later ones would often be the same fault seen through another parameter. A compared
// run replays the first run's cases one for one instead, so the two servers' answers pair up.
import fc from 'fast-check';
import { createRandom } from '../random.js';

export interface CaseOutcome<E> {
  /** The checks the case shows failing; empty when it holds. */
  readonly failing: readonly string[];
  /** What shows it (the exchange, the steps), for the report of the shrunk case. */
  readonly evidence: E;
}

export interface PropertySearch<T, E> {
  readonly seed: number;
  readonly budgetMs: number;
  /** Names the stream of cases (each part draws its own) and the findings. */
  readonly label: string;
  /** This part's share of the budget; shrinking a failure may take as long again (at least a second). */
  readonly share: number;
  readonly arbitrary: fc.Arbitrary<T>;
  /** Cases run first, before the drawn ones. */
  readonly examples?: readonly T[];
  /** Draw exactly this many cases, whatever the time, without stopping or shrinking (a compared run sends the first run's steps). */
  readonly drawn?: number;
  /** `step` names the case by its phase and place (`example-2`, `case-17`, `shrink-3`), the same in a compared run. */
  runCase(value: T, step: string): Promise<CaseOutcome<E>>;
}

/**
 * The failing case found, if any (with how it was found, for its findings: the seed that replays
 * it, its case and its shrinking), the cases run (shrinking included) and the drawn cases run
 * before a failure or the end of the time (examples and shrinking not counted).
 */
export async function searchAndShrink<T, E>(search: PropertySearch<T, E>) {
  const started = performance.now();
  const shareMs = Math.max(1, search.budgetMs * search.share);
  const seed = createRandom(search.seed, `${search.label}/cases`).int(0, 2 ** 31 - 1);
  const failures = new Map<string, CaseOutcome<E>>();
  const replay = search.drawn !== undefined;
  let cases = 0;
  let phase = { name: 'example', n: 0 };
  let firstFailing: T | undefined;
  let error: { thrown: unknown } | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const property = fc.asyncProperty(search.arbitrary, async (value) => {
    if (error) return true;
    cases++;
    const running = search.runCase(value, `${phase.name}-${phase.n++}`);
    inFlight = running.catch(() => undefined);
    let outcome: CaseOutcome<E>;
    try {
      outcome = await running;
    } catch (thrown) {
      // The run's own stop (its deadline, a lost server) ends the search, not a case.
      error ??= { thrown };
      return true;
    }
    if (outcome.failing.length === 0) return true;
    failures.set(fc.stringify(value), outcome);
    if (!replay) return false;
    firstFailing ??= value;
    return true;
  });
  // A case cut by the time limit still runs on: wait for it before the run goes on.
  const settle = async () => {
    await inFlight;
    if (error) throw error.thrown;
  };
  // The examples run whole whatever the time, so that every rule is reached; then drawn cases for the time left.
  const examples = (search.examples ?? []).map((e): [T] => [e]);
  let searched: fc.RunDetails<[T]> | undefined;
  if (examples.length > 0) {
    searched = await fc.check(property, { seed, numRuns: examples.length, endOnFailure: true, examples });
    await settle();
  }
  // A replay (`path`) counts from the same start: the examples, or the drawn cases without them.
  let replayed = examples;
  let drawn = 0;
  if (!searched?.failed && search.drawn !== 0) {
    replayed = [];
    phase = { name: 'case', n: 0 };
    const left = Math.max(1, shareMs - (performance.now() - started));
    const before = cases;
    const bound = search.drawn === undefined ? { numRuns: 1_000_000, plugins: [fc.interruptAfterTimeLimit(left)] } : { numRuns: search.drawn };
    searched = (await fc.check(property, { seed, endOnFailure: true, ...bound })) as fc.RunDetails<[T]>;
    await settle();
    // Counted as sent: a case the time limit cut still sent its request, and a replay must too.
    drawn = cases - before;
  }
  if (replay) {
    const outcome = firstFailing === undefined ? undefined : failures.get(fc.stringify(firstFailing));
    if (firstFailing === undefined || !outcome) return { cases, drawn };
    return { found: { value: firstFailing, ...outcome, how: `a case of ${search.label} in a compared run (not shrunk); --seed ${search.seed} replays it` }, cases, drawn };
  }
  const first = (searched?.counterexample as [T] | null | undefined)?.[0];
  if (!searched?.failed || first === undefined) return { cases, drawn };
  phase = { name: 'shrink', n: 0 };
  const shrunk = await fc.check(property, { seed, examples: replayed, path: searched.counterexamplePath ?? undefined, plugins: [fc.interruptAfterTimeLimit(Math.max(1000, shareMs))] });
  await settle();
  const value = (shrunk.failed ? (shrunk.counterexample as [T] | null)?.[0] : undefined) ?? first;
  const outcome = failures.get(fc.stringify(value)) ?? failures.get(fc.stringify(first));
  if (!outcome) return { cases, drawn };
  const how = `generated case ${searched.numRuns} of ${search.label}, shrunk in ${shrunk.numShrinks} steps; --seed ${search.seed} replays it`;
  return { found: { value, ...outcome, how }, cases, drawn };
}
