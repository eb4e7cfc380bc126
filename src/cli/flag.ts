// A command's flags declared once, as one table: its `--help` text, environment variable, parser
// and default. Commander reads the table (addFlags), the parsed flags' type comes from it
// (ParsedFlags), and docs/serve-flags.md's table of `serve` flags is it written out (a test compares).
import { InvalidArgumentError, Option, type Command } from 'commander';
import { anchorTime as parseAnchor } from '../seed/anchor.js';
import { isHostPattern } from '../server/host-origin-guard.js';

export interface Flag {
  /** The key of the parsed value: Commander's attribute name of the flag (checked when added). */
  readonly name: string;
  readonly flags: string;
  readonly description: string;
  /** The environment variable that gives the flag's value when the flag is not given. */
  readonly env?: string;
  readonly parse?: (value: string, previous: never) => unknown;
  readonly defaultValue?: unknown;
  /** How the default shows in --help and the docs, when not the value itself. */
  readonly defaultDescription?: string;
  readonly choices?: readonly string[];
  /** A `--no-…` flag: sets the value of `name` to false; shown with that flag in the docs. */
  readonly negates?: boolean;
}

type ValueOf<F> = F extends { parse: (...args: never[]) => infer T } ? T : F extends { choices: readonly (infer C)[] } ? C : F extends { flags: `${string}<${string}` } ? string : boolean;

/** The flags of a table, parsed: a value for each, undefined when it has no default and was not given. */
export type ParsedFlags<Table extends readonly Flag[]> = {
  readonly [F in Exclude<Table[number], { negates: true }> as F['name']]: F extends { defaultValue: unknown } ? ValueOf<F> : ValueOf<F> | undefined;
};

/** Adds the flags to the command as Commander options. */
export function addFlags(command: Command, flags: readonly Flag[]): Command {
  for (const flag of flags) {
    // Commander shows a default only when there is a value; "off" and the like go into the text,
    // whose code spans (the docs') lose their backquotes here.
    const shown = flag.defaultValue === undefined && flag.defaultDescription ? ` (default: ${flag.defaultDescription})` : '';
    const option = new Option(flag.flags, (flag.description + shown).replaceAll('`', ''));
    if (option.attributeName() !== flag.name) throw new Error(`The flag ${flag.flags} is named "${flag.name}", not "${option.attributeName()}".`);
    if (flag.env) option.env(flag.env);
    if (flag.choices) option.choices(flag.choices);
    if (flag.parse) option.argParser(flag.parse as never);
    if (flag.defaultValue !== undefined) option.default(flag.defaultValue, flag.defaultDescription);
    command.addOption(option);
  }
  return command;
}

/** A number as the flags' descriptions show it: 2,000,000. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

/** An integer from min to max (none: at least min). */
export const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => (value: string): number => {
  const n = Number(value);
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  if (!/^-?\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`expected an integer ${range}`);
  return n;
};

/** A TCP or UDP port (0: a free one). */
export const port = integer(0, 65535);

const YES_NO = new Map([...['', 'yes', 'true', 'on', '1'].map((v) => [v, true] as const), ...['no', 'false', 'off', '0'].map((v) => [v, false] as const)]);

/** yes/no, true/false, on/off or 1/0 (a flag given without a value is yes). */
export function yesNo(value: string | boolean): boolean {
  const yes = typeof value === 'boolean' ? value : YES_NO.get(value.trim().toLowerCase());
  if (yes === undefined) throw new InvalidArgumentError('expected yes or no');
  return yes;
}

/** A repeatable flag whose values (and the environment variable's) may also be comma-separated, each checked by `bad` (a reason, or undefined). */
const listOf = (bad: (item: string) => string | undefined = () => undefined, trim = (item: string) => item) => (value: string, previous: readonly string[] = []): string[] => {
  const items = value.split(',').map((v) => trim(v.trim())).filter((v) => v.length > 0);
  if (items.length === 0) throw new InvalidArgumentError('expected a value');
  const reason = items.map(bad).find((r) => r !== undefined);
  if (reason !== undefined) throw new InvalidArgumentError(reason);
  return [...previous, ...items];
};
export const list = listOf();

/** Browser origins: scheme, host and optional port, nothing after. */
export const origin = listOf((o) => (URL.canParse(o) && /^https?:$/.test(new URL(o).protocol) && new URL(o).origin === o ? undefined : `"${o}" is not an origin such as http://localhost:5173`), (o) => o.replace(/\/+$/, ''));

/** `--allowed-host`: host names or addresses, `.name` for a name and its subdomains, or `*`. */
export const allowedHost = listOf((h) => (isHostPattern(h) ? undefined : `"${h}" is not a host name or address (no port), .name (the name and its subdomains) or *`));

/** "now", an ISO date-time, or milliseconds since the epoch; as milliseconds. */
export const anchorTime = (now: () => number) => (value: string): number => {
  try {
    return parseAnchor(value, now);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
};
