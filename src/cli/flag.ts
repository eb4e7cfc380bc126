import { Option, type Command } from 'commander';

/** The prefix of the environment variables that give `serve`'s flags. */
export const SERVE_ENV = 'MONITORING_FAKE_';

/** A number as the flags' descriptions show it: 2,000,000. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

/** A flag of a command, declared once: its `--help` text, environment variable, parser and default. */
export interface Flag {
  /** The key of the parsed value: Commander's attribute name of the flag (checked when added). */
  readonly name: string;
  readonly flags: string;
  readonly description: string;
  /** The environment variable that gives the flag's value when the flag is not given. */
  readonly env?: string;
  readonly parse?: (value: string, previous: never) => unknown;
  readonly defaultValue?: unknown;
  /** How the default shows in --help, when not the value itself. */
  readonly defaultDescription?: string;
  readonly choices?: readonly string[];
  /** A `--no-…` flag: sets the value of `name` to false; shown with that flag in the README. */
  readonly negates?: boolean;
}

/** Adds the flags to the command as Commander options. */
export function addFlags(command: Command, flags: readonly Flag[]): Command {
  for (const flag of flags) {
    // Commander shows a default only when there is a value; "off" and the like go into the text.
    // The descriptions are also the README's, whose code spans lose their backquotes here.
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
