// runContract: the whole suite against one base URL, as data. Reporters listen to its events.
import type { Dispatcher } from 'undici';
import { createSpecValidator, loadSpec, type Spec, type User } from '../../spec/index.js';
import { answerLimitsFor } from '../bounded-json.js';
import type { ContractCase } from '../cases/case-schema.js';
import { prismResponseChecks, responseChecks } from '../checks/registry.js';
import { defaultCasesDir, loadCases } from '../cases/load-cases.js';
import { createApiClient, type ApiClient, type Call, type Credentials } from '../client/api-client.js';
import { createTransport } from '../client/transport.js';
import { UsageError } from '../errors.js';
import { DEFAULT_BUDGET_MS } from '../model/budget.js';
import type { PlanContext, World } from '../plans/plan.js';
import { createRandom, newSeed } from '../random.js';
import { decidePolicy } from '../safety.js';
import { createSecrets, type Secrets } from '../../shared/redaction/secret-values.js';
import { boundedValidator } from './bounded-validator.js';
import { GROUPS, isGroup, plansInOrder } from './plans.js';
import { coverageOf } from './coverage.js';
import { startDeadline } from './deadline.js';
import { recordToken } from './record-token.js';
import { redirectNote } from './redirect-note.js';
import { createRecorder, type Recorder } from './recorder.js';
import { totalsOf, type RunEvent, type RunResult } from './results.js';
import { sender } from './sender.js';

export interface RunOptions {
  readonly baseUrl: string;
  readonly admin: Credentials;
  readonly low?: Credentials;
  /** A user who holds some of the permissions the document names (--operator-login): accepted where it holds what an operation needs, refused where not. */
  readonly operator?: Credentials;
  /** The administrator's API token; else the one the document marks `x-secret` in its record, if any (record-token.ts). */
  readonly token?: string;
  readonly seed?: number;
  /** Notes fail the run too. */
  readonly strict?: boolean;
  /** true/false to force; default: writes on loopback targets only. */
  readonly allowWrites?: boolean;
  readonly probeLimits?: boolean;
  /** The server behind a proxy (Prism), which decides the safety default instead of the base URL. */
  readonly targetUrl?: string;
  /** The base URL is `prism proxy`: read its `sl-violations` header on every answer. */
  readonly viaPrism?: boolean;
  readonly isLoopback?: (url: URL) => boolean;
  /** Deadline of each request: connecting, the headers and the whole body. */
  readonly timeoutMs?: number;
  /** The whole run's deadline (--max-duration): the request in flight is ended and the run stops. */
  readonly maxDurationMs?: number;
  /** The explicit large `limit` of reference lists, and the most records a closed world holds (default 200). */
  readonly maxRecords?: number;
  /** The time generated cases may take, in ms (default DEFAULT_BUDGET_MS); shrinking a failure may take as long again. */
  readonly budgetMs?: number;
  /** Draw as many cases as another run did, by search (RunResult.drawnCases), so that a compared run sends the same steps. */
  readonly drawnCases?: Readonly<Record<string, number>>;
  /** The run's answers will be compared with another run's (--compare-with); a run with `drawnCases` is. */
  readonly compared?: boolean;
  /** Folder of contract cases (default: the kit's contracts/), or false for none. */
  readonly casesDir?: string | false;
  readonly spec?: Spec;
  /** Fail the run when fewer than this percentage of the documented statuses were seen. */
  readonly minCoverage?: number;
  /** Run only these groups (see GROUPS). */
  readonly groups?: readonly string[];
  readonly probeRequests?: number;
  /** Longest wait for a block to end (Retry-After) before going on. */
  readonly maxWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly dispatcher?: Dispatcher;
  readonly listener?: (event: RunEvent) => void;
  /** Every secret the run sends or learns (credentials, tokens, session ids) is added here, for reporters to mask through. */
  readonly secrets?: Secrets;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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

/** Logs the run session out; a server that went away meanwhile is no reason for another error. */
async function closeQuietly(client: ApiClient, recorder: Recorder): Promise<void> {
  try {
    const closed = await client.closeRunSession('end/run-session');
    if (closed) recorder.evaluate(closed, {});
  } catch {
    // The run's own error, if any, is the one to report.
  }
}

export async function runContract(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const spec = options.spec ?? (await loadSpec());
  const cases: ContractCase[] = options.casesDir === false ? [] : await loadCases(options.casesDir ?? defaultCasesDir, spec);
  const unknown = (options.groups ?? []).filter((g) => !isGroup(g));
  if (unknown.length > 0) throw new UsageError(`unknown group ${unknown.join(', ')} (groups: ${GROUPS.join(', ')})`);
  const seed = options.seed ?? newSeed();
  const policy = decidePolicy({ targetUrl: options.targetUrl ?? options.baseUrl, allowWrites: options.allowWrites, probeLimits: options.probeLimits, isLoopback: options.isLoopback });
  let transport;
  const deadline = startDeadline(options.maxDurationMs);
  try {
    transport = createTransport({
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      dispatcher: options.dispatcher,
      signal: deadline.signal,
      ...answerLimitsFor(options.maxRecords ?? 200),
    });
  } catch (error) {
    deadline.clear();
    throw new UsageError(`bad base URL "${options.baseUrl}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const secrets = options.secrets ?? createSecrets();
  for (const url of [options.baseUrl, options.targetUrl]) secrets.addUrl(url);
  const client = createApiClient({ spec, transport, policy, secrets, random: createRandom(seed, 'credentials'), admin: options.admin, low: options.low, operator: options.operator, adminToken: options.token, digests: options.compared === true || options.drawnCases !== undefined });
  const recorder = createRecorder({ spec, validator: boundedValidator(createSpecValidator(spec), Math.max(500, options.maxRecords ?? 200)) }, secrets, options.viaPrism ? prismResponseChecks : responseChecks);
  const emit = options.listener ?? (() => undefined);
  const wait = { maxWaitMs: options.maxWaitMs ?? 30_000, sleep: options.sleep ?? realSleep };
  let group = 'preflight';
  const drawnCases = new Map(Object.entries(options.drawnCases ?? {}));
  const send = sender(client, recorder, wait, deadline, () => group === 'probe-limits', options.baseUrl);
  emit({ type: 'start', baseUrl: options.baseUrl, ...(options.targetUrl ? { targetUrl: options.targetUrl } : {}), seed, safety: policy.reason });
  try {
    recorder.setGroup(group);
    const world = await learn(spec, client, send, options);
    recorder.evaluate(await client.openRunSession('preflight/run-session'), {});
    for (const [name, plan] of plansInOrder(cases, options.groups)) {
      group = name;
      emit({ type: 'group-start', group });
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
      await plan.run(ctx);
      emit({ type: 'group-end', group, outcomes: recorder.outcomes().filter((o) => o.group === group), requests: client.exchanges.length - before });
    }
  } finally {
    await closeQuietly(client, recorder);
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
  emit({ type: 'end', result });
  return result;
}
