// Its own file so that the `check` command's flags (src/cli/program.ts) can list the groups without loading the runner.
/** The groups of the contract suite, in the order they run (`check --only`). */
export const GROUPS = ['authentication', 'permissions', 'event-log', 'sequences', 'limit-block-log', 'negative-inputs', 'cases', 'probe-limits'] as const;

export type Group = (typeof GROUPS)[number];

export const isGroup = (name: string): name is Group => (GROUPS as readonly string[]).includes(name);
