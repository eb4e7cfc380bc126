import type { Flag } from './flag.js';
import { answerFlags } from './serve-flags-answers.js';
import { dataFlags } from './serve-flags-data.js';
import { incomingFlags } from './serve-flags-incoming.js';
import { journalAndLogFlags } from './serve-flags-logs.js';
import { accessFlags, connectionFlags, listenFlags } from './serve-flags-network.js';

/**
 * Every flag of `serve`, in the order `--help` and the README show them: a new option of the
 * fake adds its flag to the list of its kind. The type of the parsed flags (ServeFlags),
 * `--help` and the README's table of flags (a test compares it) all come from these lists.
 */
const declaredFlags = [...listenFlags, ...dataFlags, ...answerFlags, ...incomingFlags, ...accessFlags, ...connectionFlags, ...journalAndLogFlags] as const;
export const serveFlags: readonly Flag[] = declaredFlags;

type Declared = (typeof declaredFlags)[number];
type ValueOf<F> = F extends { parse: (...args: never[]) => infer T } ? T : F extends { choices: readonly (infer C)[] } ? C : string;

/** The flags of `serve`, parsed: a value for each flag, undefined when it has no default and was not given. */
export type ServeFlags = {
  readonly [F in Exclude<Declared, { negates: true }> as F['name']]: F extends { defaultValue: unknown } ? ValueOf<F> : ValueOf<F> | undefined;
};
