import fc from 'fast-check';
import type { FakeApp } from '../../../src/server/build.js';
import type { RateLimitRule } from '../../../src/spec/control-types.js';
import { controlApiPath, createSpecValidator, loadSpec, rateLimitPresets } from '../../../src/spec/index.js';
import { createAnswerChecker } from './check-answer.js';
import { fuzzRequest, type FuzzContext, type FuzzRequest } from './request-arbitrary.js';

/** The seeded users of fixtures/users.json (development credentials). */
export const FIXTURE_USERS = [
  { id: '5867948233835d9661c56dc8', login: 'admin', password: 'admin-password' },
  { id: '5867948233835d9661c56dca', login: 'operator', password: 'operator-password' },
  { id: '5867948233835d9661c56dc9', login: 'viewer', password: 'viewer-password' },
] as const;

/** The default preset's keys at the highest limit the rules allow (a million a second): every request is counted, none is blocked. */
export const UNREACHABLE_LIMITS: RateLimitRule[] = rateLimitPresets(await loadSpec(controlApiPath)).lenient.map((rule) => ({ ...rule, limit: 1_000_000, windowSeconds: 1 }));

const basicOf = (u: { login: string; password: string }) => `Basic ${Buffer.from(`${u.login}:${u.password}`).toString('base64')}`;

/**
 * Tokens and session ids that stay valid while the run revokes, replaces and logs out: the
 * generated requests hold placeholders (`PLACEHOLDERtoken0`, `PLACEHOLDERsid2`; letters and digits,
 * so they survive URL encoding), filled in when sent,
 * and the pool is renewed after any answer that may have spent one.
 */
export class CredentialPool {
  readonly placeholders = {
    tokens: FIXTURE_USERS.map((_, i) => `PLACEHOLDERtoken${i}`),
    sessions: FIXTURE_USERS.map((_, i) => `PLACEHOLDERsid${i}`),
  };
  #tokens: string[] = [];
  #sessions: string[] = [];
  constructor(private readonly app: FakeApp) {}

  async renew(): Promise<void> {
    const admin = FIXTURE_USERS[0];
    this.#tokens = [];
    this.#sessions = [];
    for (const user of FIXTURE_USERS) {
      const token = await this.app.inject({ method: 'POST', url: `/node/api/users/${user.id}/auth-token`, headers: { authorization: basicOf(admin) } });
      this.#tokens.push(token.statusCode === 200 ? (JSON.parse(token.body) as string) : 'no-token');
      const login = await this.app.inject({ method: 'POST', url: '/node/api/users/session', payload: { login: user.login, password: user.password } });
      this.#sessions.push(login.cookies.find((c) => c.name === 'sid')?.value ?? 'no-session');
    }
  }

  fill(text: string): string {
    return text.replace(/PLACEHOLDER(token|sid)(\d)/g, (_, kind: string, i: string) => (kind === 'token' ? this.#tokens : this.#sessions)[Number(i)] ?? '');
  }

  /** After a successful write to tokens or sessions (or a block), the pool is renewed. */
  async afterAnswer(method: string, url: string, status: number): Promise<void> {
    const spends = method !== 'GET' && /\/users\/(session|[^/?]+\/auth-token)/.test(url) && status < 300;
    if (spends || status === 429) await this.renew();
  }
}

/** Generation context from the fake itself: its routed operations and some real record ids. */
export async function fuzzContext(app: FakeApp, pool: CredentialPool): Promise<FuzzContext> {
  const records = await app.inject({ url: '/node/api/event-log?limit=20', headers: { authorization: basicOf(FIXTURE_USERS[0]) } });
  const recordIds = records.statusCode === 200 ? (JSON.parse(records.body) as { _id: string }[]).map((r) => r._id) : [];
  const routed = new Set(app.fake.registered);
  return {
    operations: app.fake.spec.operations.filter((op) => routed.has(op.operationId)),
    users: FIXTURE_USERS,
    tokens: pool.placeholders.tokens,
    sessions: pool.placeholders.sessions,
    recordIds,
  };
}

export interface FuzzReport {
  readonly runs: number;
  readonly seed: number;
  /** How many answers had each status. */
  readonly statuses: Record<string, number>;
  readonly ms: number;
}

/** Reported requests lose long runs and credentials' exact values stay as generated (fixture logins only). */
export function describeRequest(r: FuzzRequest): string {
  const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s);
  return JSON.stringify({ method: r.method, url: cut(r.url), headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, cut(v)])), payload: r.payload === undefined ? undefined : cut(r.payload) });
}

export function fillCredentials(request: FuzzRequest, pool: CredentialPool): FuzzRequest {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, pool.fill(v)]));
  return { ...request, url: pool.fill(request.url), headers };
}

/**
 * Sends `runs` generated requests to one fake with inject and checks every answer. Throws
 * (with fast-check's shrunk counterexample and its seed) at the first answer that is wrong.
 */
export async function runFuzz(app: FakeApp, options: { runs: number; seed: number }): Promise<FuzzReport> {
  const pool = new CredentialPool(app);
  await pool.renew();
  const ctx = await fuzzContext(app, pool);
  const check = createAnswerChecker(ctx.operations, createSpecValidator(app.fake.spec));
  const statuses: Record<string, number> = {};
  const t0 = performance.now();
  await fc.assert(
    fc.asyncProperty(fuzzRequest(ctx), async (generated) => {
      const request = fillCredentials(generated, pool);
      const response = await app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, payload: request.payload });
      await pool.afterAnswer(request.method, request.url, response.statusCode);
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      const problems = check(request, response);
      if (problems.length > 0) throw new Error(`${problems.join('; ')}\nrequest: ${describeRequest(request)}\nanswer: ${response.statusCode} ${response.body.slice(0, 300)}`);
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: false },
  );
  return { runs: options.runs, seed: options.seed, statuses, ms: Math.round(performance.now() - t0) };
}
