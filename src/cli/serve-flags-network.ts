import { defaultConnectionLimits } from '../server/options.js';
import { LOCAL_ORIGINS } from '../server/host-origin-guard.js';
import { SERVE_ENV, type Flag } from './flag.js';
import { allowedHost, integer, list, origin, port, yesNo } from './flag-values.js';

/** Where `serve` listens. */
export const listenFlags = [
  { name: 'port', flags: '--port <port>', description: 'port of the API, docs and control API (0 picks a free one)', env: `${SERVE_ENV}PORT`, parse: port, defaultValue: 4010 },
  { name: 'host', flags: '--host <host>', description: 'address to listen on (the SNMP and MQTT ports too)', env: `${SERVE_ENV}HOST`, defaultValue: '127.0.0.1' },
] as const satisfies readonly Flag[];

/** Who may call the fake: pages (CORS), addresses of the control API, Host names. */
export const accessFlags = [
  {
    name: 'corsOrigin',
    flags: '--cors-origin <origin>',
    description: 'pages allowed to call the fake (replaces the default); repeatable or comma-separated',
    env: `${SERVE_ENV}CORS_ORIGINS`,
    parse: origin,
    defaultDescription: `any ${LOCAL_ORIGINS.map((o) => `\`${o}\``).join(', ')}`,
  },
  {
    name: 'controlAnyAddress',
    flags: '--control-any-address [yes|no]',
    description: 'answer `/__control` from any address, not only loopback',
    env: `${SERVE_ENV}CONTROL_ANY_ADDRESS`,
    parse: yesNo,
    defaultValue: false,
    defaultDescription: 'no',
  },
  {
    name: 'controlHost',
    flags: '--control-host <name>',
    description:
      'more Host names `/__control` answers (besides `localhost`, loopback addresses and `--host`), e.g. the name containers reach the fake by; `/node/api` answers them too; repeatable or comma-separated',
    env: `${SERVE_ENV}CONTROL_HOSTS`,
    parse: list,
    defaultDescription: 'none',
  },
  {
    name: 'allowedHost',
    flags: '--allowed-host <name>',
    description:
      'more Host names `/node/api` answers (besides IP addresses, `localhost`, `*.localhost`, `--host` and `--control-host`), e.g. a name in /etc/hosts or of a proxy; `.example.test` also allows its subdomains, and `*` any Host (unsafe: it gives up the guard against DNS rebinding); repeatable or comma-separated',
    env: `${SERVE_ENV}ALLOWED_HOSTS`,
    parse: allowedHost,
    defaultDescription: 'none',
  },
] as const satisfies readonly Flag[];

/** The bounds of connections, so that many or slow clients cannot hold the fake up. */
export const connectionFlags = [
  {
    name: 'maxConnections',
    flags: '--max-connections <n>',
    description: 'most connections open at once (e.g. raise it for a load test with more clients); more are closed at once, without an answer',
    env: `${SERVE_ENV}MAX_CONNECTIONS`,
    parse: integer(1, 1_000_000),
    defaultValue: defaultConnectionLimits.maxConnections,
  },
] as const satisfies readonly Flag[];
