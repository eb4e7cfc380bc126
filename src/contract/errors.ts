// Errors that end a run before it has a result: the CLI turns them into one line and exit code 2.

/** Bad options, a bad case file, missing credentials. */
export class UsageError extends Error {}

/** The server cannot be reached at all. */
export class UnreachableError extends Error {}

/** The server blocked the run (429) for longer than the runner may wait. */
export class BlockedError extends Error {}

/** The run was stopped before its end: --max-duration passed, or the server stopped answering. */
export class StoppedError extends Error {}
