import type { Command } from 'commander';
import { buildFake, type FakeApp } from '../server/build.js';
import type { FakeOptions } from '../server/options.js';
import { createSpecValidator } from '../spec/index.js';
import { loadUsersFixture } from '../store/users-fixture.js';
import { addFlags, fakeOptionsFromFlags, serveFlags, type ServeFlags } from './flags.js';

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly fake?: FakeOptions;
  /** Where the banner goes (default: stdout). */
  readonly print?: (line: string) => void;
}

export interface RunningFake {
  readonly app: FakeApp;
  /** e.g. http://127.0.0.1:4010 */
  readonly origin: string;
  /** e.g. http://127.0.0.1:4010/node/api */
  readonly baseUrl: string;
}

/**
 * The seeded logins with their passwords. They are the fake's development credentials,
 * shown on purpose so a developer can log in at once; no real secret is ever among them.
 */
async function banner(app: FakeApp, origin: string, baseUrl: string): Promise<string[]> {
  const users = await loadUsersFixture(app.fake.options.users, createSpecValidator(app.fake.spec));
  const width = Math.max(0, ...users.map((u) => u.login.length));
  const passWidth = Math.max(0, ...users.map((u) => u.password.length));
  const first = users[0];
  return [
    `Monitoring API fake listening on ${origin}`,
    `API base URL: ${baseUrl}`,
    'Seeded logins (development credentials of this fake):',
    ...users.map(
      (u) => `  ${u.login.padEnd(width)}  ${u.password.padEnd(passWidth)}  ${u.permissions.join(', ') || '(no permissions)'}`,
    ),
    ...(first ? [`Try: curl -u ${first.login}:${first.password} ${baseUrl}/users/current`] : []),
  ];
}

export async function startServer(options: ServeOptions): Promise<RunningFake> {
  const print = options.print ?? ((line: string) => console.log(line));
  const app = await buildFake(options.fake);
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${host}:${port}`;
  const baseUrl = `${origin}/node/api`;
  for (const line of await banner(app, origin, baseUrl)) print(line);
  return { app, origin, baseUrl };
}

export function registerServeCommand(program: Command): Command {
  const command = program.command('serve').description('serve the in-memory fake of the API');
  addFlags(command, serveFlags).action(async (flags: ServeFlags) => {
    const { app } = await startServer({ port: flags.port, host: flags.host, fake: fakeOptionsFromFlags(flags) });
    const stop = (signal: string) => {
      console.log(`${signal}: shutting down`);
      app.close().then(
        () => {
          process.exitCode = 0;
        },
        (error: unknown) => {
          console.error(error);
          process.exitCode = 1;
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return command;
}
