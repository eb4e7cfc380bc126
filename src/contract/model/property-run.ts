// Generated cases within a time budget, replayable from the run's seed: fast-check draws them,
// stops at the first failing one and shrinks it to the smallest that still fails. A round that
// found a failure starts again without the checks it showed, so one run can find several.
import fc from 'fast-check';
import { createRandom } from '../random.js';

/** The time the run gives generated cases, by default; `--budget` sets it. */
export const DEFAULT_BUDGET_MS = 4000;

/**
 * The parts of the budget. A part may take its share again to shrink a failure it found, so a
 * run without failures keeps within the budget and one with failures within about twice it.
 */
export const BUDGET_SHARES = { 'event-log': 0.4, 'limit-block-log': 0.15, sequences: 0.45 } as const;

export interface CaseOutcome<E> {
  /** The checks the case shows failing; empty when it holds. */
  readonly failing: readonly string[];
  /** What shows it (the exchange, the steps), for the report of the shrunk case. */
  readonly evidence: E;
}

export interface Found<T, E> extends CaseOutcome<E> {
  readonly value: T;
  /** How it was found, for its findings: the seed that replays it, its case and its shrinking. */
  readonly how: string;
}

export interface PropertySearch<T, E> {
  /** The run's seed and budget. */
  readonly seed: number;
  readonly budgetMs: number;
  /** Names the stream of cases (each part draws its own) and the findings. */
  readonly label: string;
  readonly share: number;
  readonly arbitrary: fc.Arbitrary<T>;
  runCase(value: T): Promise<CaseOutcome<E>>;
  /** The clock (tests may stop it). */
  readonly now?: () => number;
}

export interface SearchResult<T, E> {
  readonly found: readonly Found<T, E>[];
  /** Cases run, shrinking included. */
  readonly cases: number;
}

const MAX_ROUNDS = 8;

export async function searchAndShrink<T, E>(search: PropertySearch<T, E>): Promise<SearchResult<T, E>> {
  const now = search.now ?? (() => performance.now());
  const shareMs = Math.max(1, search.budgetMs * search.share);
  const end = now() + shareMs;
  const ignored = new Set<string>();
  const found: Found<T, E>[] = [];
  let cases = 0;
  for (let round = 0; round < MAX_ROUNDS && now() < end; round++) {
    const seed = createRandom(search.seed, `${search.label}/round-${round}`).int(0, 2 ** 31 - 1);
    const failures = new Map<string, CaseOutcome<E>>();
    let error: { thrown: unknown } | undefined;
    let inFlight: Promise<unknown> = Promise.resolve();
    const property = fc.asyncProperty(search.arbitrary, async (value) => {
      if (error) return true;
      cases++;
      const running = search.runCase(value);
      inFlight = running.catch(() => undefined);
      let outcome: CaseOutcome<E>;
      try {
        outcome = await running;
      } catch (thrown) {
        // The run's own stop (its deadline, a lost server) ends the search, not a case.
        error ??= { thrown };
        return true;
      }
      const failing = outcome.failing.filter((name) => !ignored.has(name));
      if (failing.length === 0) return true;
      failures.set(fc.stringify(value), { failing, evidence: outcome.evidence });
      return false;
    });
    const settle = async () => {
      await inFlight;
      if (error) throw error.thrown;
    };
    const searched = await fc.check(property, { seed, numRuns: 1_000_000, endOnFailure: true, plugins: [fc.interruptAfterTimeLimit(Math.max(1, end - now()))] });
    await settle();
    const first = (searched.counterexample as [T] | null)?.[0];
    if (!searched.failed || first === undefined) break;
    const shrunk = await fc.check(property, { seed, path: searched.counterexamplePath ?? undefined, plugins: [fc.interruptAfterTimeLimit(Math.max(1000, shareMs))] });
    await settle();
    const value = (shrunk.failed ? (shrunk.counterexample as [T] | null)?.[0] : undefined) ?? first;
    const outcome = failures.get(fc.stringify(value)) ?? failures.get(fc.stringify(first));
    if (!outcome) break;
    found.push({ value, ...outcome, how: `generated case ${searched.numRuns} of ${search.label} round ${round + 1}, shrunk in ${shrunk.numShrinks} steps; --seed ${search.seed} replays it` });
    for (const name of outcome.failing) ignored.add(name);
  }
  return { found, cases };
}
