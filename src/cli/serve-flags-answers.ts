import { SERVE_ENV, type Flag } from './flag.js';
import { integer, yesNo } from './flag-values.js';

/** How the fake answers: authentication, rate limits, latency, the `Prefer` header, CSRF. */
export const answerFlags = [
  {
    name: 'tokenAuth',
    flags: '--token-auth [yes|no]',
    description: 'token authentication (`server.user.auth_token_enabled`)',
    env: `${SERVE_ENV}TOKEN_AUTH`,
    parse: yesNo,
    defaultValue: true,
    defaultDescription: 'yes',
  },
  { name: 'tokenAuth', flags: '--no-token-auth', description: 'switch token authentication off (same as --token-auth no)', negates: true },
  { name: 'rateLimit', flags: '--rate-limit <preset|file>', description: 'rate limits: `lenient`, `strict`, `off`, or a JSON file of rules', env: `${SERVE_ENV}RATE_LIMIT`, defaultValue: 'lenient' },
  {
    name: 'latency',
    flags: '--latency <ms>',
    description: 'milliseconds added before every answer of `/node/api`',
    env: `${SERVE_ENV}LATENCY`,
    parse: integer(0, 60_000),
    defaultValue: 0,
  },
  {
    name: 'prefer',
    flags: '--prefer [yes|no]',
    description: 'honour a one-request `Prefer: code=<status>` or `latency=<ms>` header from the clients `/__control` answers (loopback, allowed origins)',
    env: `${SERVE_ENV}PREFER`,
    parse: yesNo,
    defaultValue: true,
    defaultDescription: 'yes',
  },
  { name: 'prefer', flags: '--no-prefer', description: 'ignore the `Prefer` header (same as --prefer no)', negates: true },
  {
    name: 'requireCsrf',
    flags: '--require-csrf [yes|no]',
    description: "writes made with the session cookie must send the `csrf` cookie's value in `x-csrf-token`",
    env: `${SERVE_ENV}REQUIRE_CSRF`,
    parse: yesNo,
    defaultValue: false,
    defaultDescription: 'no',
  },
] as const satisfies readonly Flag[];
