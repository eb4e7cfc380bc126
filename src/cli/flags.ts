import { InvalidArgumentError, type Command } from 'commander';
import type { FakeOptions } from '../server/options.js';

/** The flags of `serve`, parsed. */
export interface ServeFlags {
  readonly port: number;
  readonly host: string;
  readonly users?: string;
  readonly tokenAuth: boolean;
  readonly requireCsrf: boolean;
  readonly logLevel: string;
}

interface Flag {
  readonly flags: string;
  readonly description: string;
  readonly parse?: (value: string) => unknown;
  readonly defaultValue?: unknown;
}

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

/** Every flag of `serve`, in one place: a new option of the fake adds its flag here. */
export const serveFlags: readonly Flag[] = [
  { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', parse: integer(0, 65535), defaultValue: 4010 },
  { flags: '--host <host>', description: 'address to listen on', defaultValue: '127.0.0.1' },
  { flags: '--users <file>', description: 'users fixture (JSON; default: fixtures/users.json)' },
  { flags: '--no-token-auth', description: 'switch token authentication off (server.user.auth_token_enabled=false)' },
  { flags: '--require-csrf', description: 'require x-csrf-token on writes made with a session cookie', defaultValue: false },
  { flags: '--log-level <level>', description: 'request log level: trace, debug, info, warn, error, fatal or silent', defaultValue: 'info' },
];

export function addFlags(command: Command, flags: readonly Flag[]): Command {
  for (const flag of flags) {
    if (flag.parse) command.option(flag.flags, flag.description, flag.parse, flag.defaultValue);
    else command.option(flag.flags, flag.description, flag.defaultValue as string | boolean | undefined);
  }
  return command;
}

/** The options of the fake that the flags set. */
export function fakeOptionsFromFlags(flags: ServeFlags): FakeOptions {
  return {
    ...(flags.users !== undefined ? { users: flags.users } : {}),
    tokenAuthEnabled: flags.tokenAuth,
    requireCsrf: flags.requireCsrf,
    logger: { level: flags.logLevel },
  };
}
