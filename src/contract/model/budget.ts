// The time generated cases may take. Its own file so that the `check` command's flags
// (src/cli/program.ts) can show the default without loading the runner.

/** The time the run gives generated cases, by default; `--budget` sets it. */
export const DEFAULT_BUDGET_MS = 4000;

/**
 * The parts of the budget. A part may take its share again to shrink a failure it found, so a
 * run without failures keeps within the budget and one with failures within about twice it.
 */
export const BUDGET_SHARES = { 'event-log': 0.4, 'limit-block-log': 0.15, sequences: 0.45 } as const;
