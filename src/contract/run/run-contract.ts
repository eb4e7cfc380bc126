// runContract: the whole suite against one base URL, as data. Reporters listen to its events.
// Each group's plan runs in the order of GROUPS, every request within the run's deadline
// (--max-duration) and with blocks (429) waited out within --max-wait.
import { StoppedError, BlockedError, UsageError } from '../errors.js';
import type { Exchange } from '../types.js';
import { type ApiClient, createApiClient, type Credentials } from '../client/api-client.js';
import type { PlanContext, Plan, World } from '../plans/plan.js';
import { createRecorder } from './recorder.js';
import { type ContractCase, defaultCasesDir, loadCases } from '../cases/load-cases.js';
import { authenticationPlan, permissionsPlan } from '../plans/access-plans.js';
import { casesPlan } from '../plans/cases.js';
import { eventLogPlan, limitBlockLogPlan } from '../plans/list-plans.js';
import { negativeInputsPlan } from '../plans/negative-inputs.js';
import { probeLimitsPlan } from '../plans/probe-limits.js';
import { sequencesPlan } from '../plans/sequences.js';
import { GROUPS, isGroup, type Group } from './groups.js';
import { setMaxListeners } from 'node:events';
import { createSpecValidator, loadSpec, type Spec, type User } from '../../spec/index.js';
import { answerLimitsFor, createTransport } from '../client/transport.js';
import { DEFAULT_BUDGET_MS } from '../model/budget.js';
import { createRandom, newSeed } from '../random.js';
import { decidePolicy } from '../safety.js';
import { createSecrets, type Secrets } from '../../shared/redaction/secret-values.js';
import { coverageOf } from './coverage.js';
import { recordToken } from '../client/credentials.js';
import { totalsOf, type RunEvent, type RunResult } from './results.js';

export type Deadline = ReturnType<typeof startDeadline>;

/** The run's deadline (--max-duration): one signal ends the request in flight and cuts any wait short. */
export function startDeadline(maxDurationMs: number | undefined) {
  const controller = new AbortController();
  const { signal } = controller;
  // Every request in flight listens to this signal: parallel requests are many listeners, not a leak.
  setMaxListeners(0, signal);
  let what = 'the start';
  const timer =
    maxDurationMs === undefined ? undefined : setTimeout(() => controller.abort(new StoppedError(`stopped after ${maxDurationMs / 1000} s (--max-duration) during ${what}`)), maxDurationMs);
  const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  return {
    signal,
    /** What the run is doing, for the line that says where it stopped. */
    doing(next: string): void {
      what = next;
    },
    /** Sleeps, but wakes when time is up and throws why. */
    async sleep(ms: number, sleep: (ms: number) => Promise<void>): Promise<void> {
      await Promise.race([sleep(ms), aborted]);
      if (signal.aborted) throw signal.reason;
    },
    clear(): void {
      clearTimeout(timer);
    },
  };
}

export interface Wait {
  readonly maxWaitMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

export interface BlockWaitOptions {
  readonly wait: Wait;
  readonly deadline: Deadline;
  /** What is sent, e.g. the operationId, for the deadline's "stopped during" and the error. */
  readonly what: string;
  readonly baseUrl: string;
  /** Told before each wait, e.g. to show progress. */
  readonly onWait?: (ms: number, retryAfter: string | undefined) => void;
}

const MIN_WAIT_MS = 1000;
const RETRIES = 5;

// Sends until the answer is not a 429, then a BlockedError. Waiting out a block is bounded whatever
// the server says: at least a second a wait, a few retries, --max-wait in all, never past the
// run's deadline. `record` waits the same way.
export async function waitingOutBlocks(send: () => Promise<Exchange>, options: BlockWaitOptions): Promise<Exchange> {
  const { wait, deadline, what, baseUrl } = options;
  let exchange = await send();
  for (let waited = 0, retries = 0; exchange.response?.status === 429; retries++) {
    const header = exchange.response.headers['retry-after'];
    const retryAfter = Array.isArray(header) ? header[0] : header;
    const seconds = Number(retryAfter ?? 1);
    const after = Math.max(MIN_WAIT_MS, seconds * 1000);
    const tooLong = !Number.isFinite(seconds) || waited + after > wait.maxWaitMs;
    if (tooLong || retries >= RETRIES) {
      const why = tooLong ? 'more than --max-wait allows' : `still blocked after ${RETRIES} retries`;
      throw new BlockedError(`${baseUrl} blocked the run (429 on ${what}, Retry-After ${String(retryAfter ?? '?')} s, ${why}): relax its limits${tooLong ? ' or raise --max-wait' : ''}`);
    }
    options.onWait?.(after, retryAfter);
    deadline.doing(`the wait for a block on ${what} to end`);
    await deadline.sleep(after, wait.sleep);
    waited += after;
    deadline.doing(what);
    exchange = await send();
  }
  return exchange;
}

/** The plan of each group (a group without a plan is a type error); the rate-limit probe runs last: it may get the prober blocked. */
export function plansFor(cases: readonly ContractCase[]): Readonly<Record<Group, Plan>> {
  return {
    authentication: authenticationPlan,
    permissions: permissionsPlan,
    'event-log': eventLogPlan,
    sequences: sequencesPlan,
    'limit-block-log': limitBlockLogPlan,
    'negative-inputs': negativeInputsPlan,
    cases: casesPlan(cases),
    'probe-limits': probeLimitsPlan,
  };
}

// A run whose every answer was a redirect never reached the API (a log-in proxy, a base URL
// without the path prefix): the runner follows none, so it says so once.
export function redirectNote(exchanges: readonly Exchange[]): string | undefined {
  const statuses = [...new Set(exchanges.flatMap((e) => (e.response ? [e.response.status] : [])))].sort();
  if (statuses.length === 0 || !statuses.every((s) => s >= 300 && s < 400)) return undefined;
  return `every answer was a redirect (${statuses.join(', ')}): the runner follows none, so the API was not reached; --base-url may be behind a log-in page or lack a path prefix`;
}

export interface RunOptions {
  readonly baseUrl: string;
  readonly admin: Credentials;
  readonly low?: Credentials;
  readonly operator?: Credentials;
  /** The administrator's API token; else the one the document marks `x-secret` in its record, if any (recordToken). */
  readonly token?: string;
  readonly seed?: number;
  /** Notes fail the run too. */
  readonly strict?: boolean;
  readonly allowWrites?: boolean;
  readonly probeLimits?: boolean;
  readonly isLoopback?: (url: URL) => boolean;
  readonly timeoutMs?: number;
  readonly maxDurationMs?: number;
  /** The explicit large `limit` of reference lists, and the most records a closed world holds (default 200). */
  readonly maxRecords?: number;
  readonly budgetMs?: number;
  /** Draw as many cases as another run did, by search (RunResult.drawnCases), so that a compared run sends the same steps. */
  readonly drawnCases?: Readonly<Record<string, number>>;
  /** The run's answers will be compared with another run's (--compare-with); a run with `drawnCases` is. */
  readonly compared?: boolean;
  /** Folder of contract cases (default: the kit's contracts/), or false for none. */
  readonly casesDir?: string | false;
  readonly spec?: Spec;
  readonly minCoverage?: number;
  /** Run only these groups (see GROUPS). */
  readonly groups?: readonly string[];
  readonly probeRequests?: number;
  readonly maxWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly listener?: (event: RunEvent) => void;
  /** Every secret the run sends or learns (credentials, tokens, session ids) is added here, for reporters to mask through. */
  readonly secrets?: Secrets;
}

async function learn(spec: Spec, client: ApiClient, send: PlanContext['send'], options: RunOptions): Promise<World> {
  await send({ operationId: 'getCurrentUser', key: 'preflight/anonymous', actor: 'anonymous', auth: 'none' });
  const me = await send({ operationId: 'getCurrentUser', key: 'preflight/admin' });
  const status = me.response?.status ?? 0;
  if (status === 401 || status === 403) throw new UsageError(`the administrator credentials were refused (${status}) by ${options.baseUrl}`);
  const admin = (status < 300 ? me.response?.json : undefined) as User | undefined;
  const token = options.token ?? recordToken(spec, me);
  if (token) client.setToken('admin', token);
  const other = async (actor: 'low' | 'operator', what: string): Promise<User | undefined> => {
    if (!client.hasActor(actor)) return undefined;
    const answer = await send({ operationId: 'getCurrentUser', key: `preflight/${actor}`, actor });
    const answered = answer.response?.status ?? 0;
    if (answered === 401) throw new UsageError(`the ${what} credentials were refused (401) by ${options.baseUrl}`);
    return (answered < 300 ? answer.response?.json : undefined) as User | undefined;
  };
  return { admin, low: await other('low', 'low-privilege'), operator: await other('operator', 'operator'), closedWorlds: new Map() };
}

export async function runContract(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const spec = options.spec ?? (await loadSpec());
  const cases: ContractCase[] = options.casesDir === false ? [] : await loadCases(options.casesDir ?? defaultCasesDir, spec);
  const unknown = (options.groups ?? []).filter((g) => !isGroup(g));
  if (unknown.length > 0) throw new UsageError(`unknown group ${unknown.join(', ')} (groups: ${GROUPS.join(', ')})`);
  const seed = options.seed ?? newSeed();
  const policy = decidePolicy({ targetUrl: options.baseUrl, allowWrites: options.allowWrites, probeLimits: options.probeLimits, isLoopback: options.isLoopback });
  let transport;
  const deadline = startDeadline(options.maxDurationMs);
  try {
    transport = createTransport({
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      signal: deadline.signal,
      ...answerLimitsFor(options.maxRecords ?? 200),
    });
  } catch (error) {
    deadline.clear();
    throw new UsageError(`bad base URL "${options.baseUrl}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const secrets = options.secrets ?? createSecrets();
  secrets.addUrl(options.baseUrl);
  const client = createApiClient({ spec, transport, policy, secrets, random: createRandom(seed, 'credentials'), admin: options.admin, low: options.low, operator: options.operator, adminToken: options.token, digests: options.compared === true || options.drawnCases !== undefined });
  const recorder = createRecorder({ spec, validator: createSpecValidator(spec), maxItems: Math.max(500, options.maxRecords ?? 200) }, secrets);
  const emit = options.listener ?? (() => undefined);
  const wait = { maxWaitMs: options.maxWaitMs ?? 30_000, sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))) };
  let group = 'preflight';
  const drawnCases = new Map(Object.entries(options.drawnCases ?? {}));
  // Outside the probe a block is no finding: a short one is waited out, a long one stops the run.
  const send: PlanContext['send'] = async (call, evaluation = {}) => {
    deadline.doing(call.operationId);
    const once = (): Promise<Exchange> => client.call(call);
    const exchange = group === 'probe-limits' ? await once() : await waitingOutBlocks(once, { wait, deadline, what: call.operationId, baseUrl: options.baseUrl });
    recorder.evaluate(exchange, evaluation);
    return exchange;
  };
  emit({ type: 'start', baseUrl: options.baseUrl, seed, safety: policy.reason });
  try {
    recorder.setGroup(group);
    const world = await learn(spec, client, send, options);
    recorder.evaluate(await client.openRunSession('preflight/run-session'), {});
    const plans = plansFor(cases);
    for (const name of GROUPS.filter((g) => !options.groups || options.groups.includes(g))) {
      group = name;
      recorder.setGroup(group);
      const before = client.exchanges.length;
      const ctx: PlanContext = {
        spec,
        client,
        policy,
        random: createRandom(seed, group),
        seed,
        world,
        maxRecords: options.maxRecords ?? 200,
        budgetMs: options.budgetMs ?? DEFAULT_BUDGET_MS,
        drawnCases,
        replayCounts: options.drawnCases !== undefined,
        probe: { requests: options.probeRequests ?? 300, maxWaitMs: wait.maxWaitMs, sleep: (ms) => deadline.sleep(ms, wait.sleep) },
        send,
        evaluate: (exchange, evaluation) => void recorder.evaluate(exchange, evaluation, false),
        skip: (operationId, check, reason) => recorder.skip(operationId, check, reason),
        inconclusive: (operationId, check, reason) => recorder.inconclusive(operationId, check, reason),
      };
      await plans[name](ctx);
      emit({ type: 'group-end', group, outcomes: recorder.outcomes().filter((o) => o.group === group), requests: client.exchanges.length - before });
    }
  } finally {
    // The run session logged out: a server that went away meanwhile is no reason for another error (the run's own, if any, is the one to report).
    const closed = await client.closeRunSession('end/run-session').catch(() => undefined);
    if (closed) recorder.evaluate(closed, {});
    await transport.close();
    deadline.clear();
  }
  const outcomes = recorder.outcomes();
  const coverage = coverageOf(spec, client.exchanges, outcomes, options.minCoverage);
  const runNotes = [redirectNote(client.exchanges)].filter((note) => note !== undefined);
  const result: RunResult = {
    baseUrl: options.baseUrl,
    seed,
    strict: options.strict === true,
    safety: policy.reason,
    ...(runNotes.length > 0 ? { runNotes } : {}),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: client.exchanges.length,
    drawnCases: Object.fromEntries(drawnCases),
    outcomes,
    coverage,
    ...totalsOf(outcomes, options.strict === true, coverage.belowMinimum),
    exchanges: client.exchanges,
  };
  return result;
}
