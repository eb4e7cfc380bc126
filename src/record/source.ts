// The server being recorded, read-only: one session log-in (Basic when the server has no
// sessions), GET requests, the log-out. Built on the contract runner's client, so the same
// transport deadline, body cap, no-redirect rule, read-only guard, secret list and bounded
// waits for blocks apply.
import { JSON_LIMITS, type JsonLimits } from '../contract/bounded-json.js';
import { createApiClient, type ApiClient, type Credentials } from '../contract/client/api-client.js';
import { createTransport, type Transport } from '../contract/client/transport.js';
import { StoppedError, UsageError } from '../contract/errors.js';
import { createRandom } from '../contract/random.js';
import { waitingOutBlocks, type Wait } from '../contract/run/blocks.js';
import type { Deadline } from '../contract/run/deadline.js';
import type { SafetyPolicy } from '../contract/safety.js';
import type { Secrets } from '../shared/redaction/secret-values.js';
import type { Exchange } from '../contract/types.js';
import type { Spec } from '../spec/index.js';

const READ_ONLY: SafetyPolicy = { writes: false, probeLimits: false, reason: 'read-only (record never writes)' };

/** Attempts of a request that got no answer at all (a dropped connection, a timeout). */
const ATTEMPTS = 3;
const RETRY_PAUSE_MS = 1000;

/**
 * What is read and parsed of one answer: room for a page of records far larger than usual
 * (traps with many bindings), and still a bound, so a server cannot make the run hold more.
 */
function pageLimits(pageSize: number): { maxBodyBytes: number; json: JsonLimits } {
  return { maxBodyBytes: Math.max(1024 * 1024, 8 * 1024 * pageSize), json: { ...JSON_LIMITS, maxValues: Math.max(JSON_LIMITS.maxValues, 200 * pageSize) } };
}

export interface SourceOptions {
  readonly spec: Spec;
  readonly baseUrl: string;
  readonly admin: Credentials;
  readonly secrets: Secrets;
  readonly deadline: Deadline;
  readonly wait: Wait;
  readonly timeoutMs?: number;
  /** Records asked for in one page: what is read and parsed of an answer grows with it. */
  readonly pageSize: number;
  /** Told when a block (429) is waited out, and when a request without an answer is tried again. */
  readonly onWait?: (what: string) => void;
}

/** What the server answered with an unexpected status: exit 2 with its words. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface Source {
  /** An answer of 200 with its parsed JSON body, after waiting out blocks and retrying a dropped request. */
  get(operationId: string, query?: Readonly<Record<string, string>>): Promise<{ json: unknown; exchange: Exchange }>;
  /** The answer to a GET whatever its status (for operations the user may not be allowed). */
  fetch(operationId: string, query?: Readonly<Record<string, string>>): Promise<Exchange>;
  logIn(): Promise<void>;
  logOut(): Promise<void>;
  readonly transport: Transport;
}

function messageOf(exchange: Exchange): string {
  const body = exchange.response?.json as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? `: ${body.message}` : '';
}

export function openSource(options: SourceOptions): Source {
  const { spec, secrets, deadline, wait } = options;
  let transport: Transport;
  try {
    transport = createTransport({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, ...pageLimits(options.pageSize), signal: deadline.signal });
  } catch (error) {
    throw new UsageError(`bad base URL "${options.baseUrl}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const origin = transport.baseUrl.origin;
  const client: ApiClient = createApiClient({
    spec,
    transport,
    policy: READ_ONLY,
    secrets,
    // The client draws only for deliberately wrong credentials, which recording never sends.
    random: createRandom(0, 'record'),
    admin: options.admin,
    keepExchanges: false,
  });
  let calls = 0;

  async function fetch(operationId: string, query: Readonly<Record<string, string>> = {}): Promise<Exchange> {
    const send = (): Promise<Exchange> => client.call({ operationId, key: `record/${operationId}/${(calls += 1)}`, query });
    for (let attempt = 1; ; attempt++) {
      deadline.doing(operationId);
      const exchange = await waitingOutBlocks(send, {
        wait,
        deadline,
        what: operationId,
        baseUrl: origin,
        onWait: (ms, after) => options.onWait?.(`blocked (429 on ${operationId}, Retry-After ${after ?? '?'}): waiting ${Math.round(ms / 1000)} s`),
      });
      if (exchange.response && !exchange.error) return exchange;
      // An answer too large or too deep to read will be so again: no retry.
      if (exchange.response) throw new SourceError(`${operationId} answered ${exchange.response.status}, but ${exchange.error}: ask for fewer records a page (--page-size)`);
      // No answer: the connection dropped or timed out.
      const why = exchange.error ?? 'no answer';
      if (attempt >= ATTEMPTS) throw new StoppedError(`stopped: ${operationId} got no complete answer from ${origin} in ${ATTEMPTS} attempts (the last: ${why})`);
      options.onWait?.(`no complete answer to ${operationId} (${why}): trying again in 1 s`);
      await deadline.sleep(RETRY_PAUSE_MS, wait.sleep);
    }
  }

  return {
    transport,
    fetch,
    async get(operationId, query) {
      const exchange = await fetch(operationId, query);
      const response = exchange.response!;
      if (response.status === 401) throw new UsageError(`the credentials were refused (401) by ${origin}`);
      if (response.status !== 200) throw new SourceError(`${operationId} answered ${response.status}${messageOf(exchange)}`, response.status);
      if (response.json === undefined) throw new SourceError(`${operationId} answered 200 without a JSON body`);
      return { json: response.json, exchange };
    },
    async logIn() {
      // A refused log-in leaves Basic for the GETs, and the first of them tells why.
      await waitingOutBlocks(() => client.openRunSession('record/log-in'), { wait, deadline, what: 'createSession', baseUrl: origin });
    },
    async logOut() {
      await client.closeRunSession('record/log-out');
    },
  };
}
