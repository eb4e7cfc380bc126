// The deliberately broken variants of the fake, one thing broken each, with the check that must catch it.
import type { Breakage, ProxiedRequest } from './breaking-proxy.js';
import { json } from './breaking-proxy.js';

const isEventLog = (r: ProxiedRequest): boolean => r.method === 'GET' && r.url.pathname === '/node/api/event-log';
const hasCredentials = (r: ProxiedRequest): boolean =>
  r.headers.authorization !== undefined || /(^|;\s*)sid=/.test(r.headers.cookie ?? '') || r.url.searchParams.has('api-token') || r.url.searchParams.has('auth-token');
/** The password the leaked-password variant adds to user records: it must never reach a report. */
export const LEAKED_PASSWORD = 'leaked-server-side-password';

const basicOf = (login: string, password: string): string => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const adminBasic = basicOf('admin', 'admin-password');
const PASSWORDS: Readonly<Record<string, string>> = { admin: 'admin-password', operator: 'operator-password', viewer: 'viewer-password' };
/** The login and password of a Basic header. */
const basicPair = (r: ProxiedRequest): [string, string] | undefined => {
  const m = /^Basic (.+)$/.exec(r.headers.authorization ?? '');
  const text = m ? Buffer.from(m[1] ?? '', 'base64').toString('utf8') : undefined;
  const at = text?.indexOf(':') ?? -1;
  return text !== undefined && at >= 0 ? [text.slice(0, at), text.slice(at + 1)] : undefined;
};
/** Lets a known login in with a password `lets` accepts: the request goes on with the right one. */
function passwordsNotChecked(lets: (password: string) => boolean): Breakage {
  return {
    request: (r) => {
      const pair = basicPair(r);
      const right = pair && PASSWORDS[pair[0]];
      if (pair && right && lets(pair[1])) r.headers.authorization = basicOf(pair[0], right);
      if (r.method === 'POST' && r.url.pathname === '/node/api/users/session') {
        const body = JSON.parse(r.body || '{}') as { login?: string; password?: string };
        const known = PASSWORDS[body.login ?? ''];
        if (known && lets(body.password ?? '')) r.body = JSON.stringify({ ...body, password: known });
      }
      return r;
    },
  };
}

/** Rewrites each event-log record of a 200 answer. */
function eachRecord(change: (record: Record<string, unknown>) => Record<string, unknown>): Breakage {
  return {
    response: (r, res) => {
      if (!isEventLog(r) || res.status !== 200) return res;
      return { ...res, body: JSON.stringify((JSON.parse(res.body) as Record<string, unknown>[]).map(change)) };
    },
  };
}

/** Breaks the payload updates of traps, known from the event-log answers: `at` is the trap's place among those seen. */
function onTraps(change: (r: ProxiedRequest, traps: readonly string[], at: number) => ProxiedRequest | ReturnType<typeof json>): Breakage {
  const traps: string[] = [];
  return {
    request: (r) => {
      const id = /^\/node\/api\/event-log\/([^/]+)\/payload$/.exec(r.url.pathname)?.[1];
      const at = id === undefined ? -1 : traps.indexOf(id);
      return r.method === 'PATCH' && at >= 0 && hasCredentials(r) ? change(r, traps, at) : r;
    },
    response: (r, res) => {
      if (isEventLog(r) && res.status === 200) {
        for (const record of JSON.parse(res.body) as { _id: string; type: string }[]) if (record.type === 'snmp-trap' && !traps.includes(record._id)) traps.push(record._id);
      }
      return res;
    },
  };
}

export interface BrokenVariant {
  readonly name: string;
  /** What it breaks, for the test's name. */
  readonly breaks: string;
  /** The check and operation that must catch it. */
  readonly caughtBy: { readonly check: string; readonly operationId: string };
  /** What the finding is: a violation fails the run; a note (what the spec leaves open) does not. Default violation. */
  readonly verdict?: 'violation' | 'note';
  /** Groups enough to catch it (the run is faster without the others). */
  readonly groups: readonly string[];
  /** A sequence caught it: the finding shows it as numbered curl steps, shrunk to at most this many. */
  readonly shrunkTo?: number;
  /** Some variants need a valid token of a user the run does not use. */
  breakage(context: { readonly spareToken: string }): Breakage;
}

export const brokenVariants: readonly BrokenVariant[] = [
  {
    name: 'any-password',
    breaks: 'a known login is let in with any password (Basic and log-in)',
    caughtBy: { check: 'wrong-credentials-refused', operationId: 'getCurrentUser' },
    groups: ['authentication'],
    breakage: () => passwordsNotChecked(() => true),
  },
  {
    name: 'empty-password',
    breaks: 'a known login is let in with an empty password',
    caughtBy: { check: 'wrong-credentials-refused', operationId: 'createSession' },
    groups: ['authentication'],
    breakage: () => passwordsNotChecked((password) => password === ''),
  },
  {
    name: 'token-by-session',
    breaks: 'createAuthToken (Basic only, 4.1) accepts a session cookie',
    caughtBy: { check: 'undeclared-scheme-refused', operationId: 'createAuthToken' },
    groups: ['authentication'],
    breakage: () => ({
      request: (r) => {
        if (r.url.pathname.endsWith('/auth-token') && !r.headers.authorization && /(^|;\s*)sid=/.test(r.headers.cookie ?? '')) r.headers.authorization = adminBasic;
        return r;
      },
    }),
  },
  {
    name: 'payload-needs-manage-users',
    breaks: 'the payload update also needs manage-users, so an operator holding manage-event-log is refused',
    caughtBy: { check: 'permission-accepted', operationId: 'updateEventLogPayload' },
    groups: ['permissions'],
    breakage: () => ({
      request: (r) =>
        r.method === 'PATCH' && basicPair(r)?.[0] === 'operator' ? json(403, { status: 403, code: 'PERMISSION_DENIED', message: 'Permission "manage-users" is required.', permission: 'manage-users' }) : r,
    }),
  },
  {
    name: 'block-log-for-all',
    breaks: 'the limit-block log is served to a user without manage-users',
    caughtBy: { check: 'permission-refused', operationId: 'getLimitBlockLog' },
    groups: ['permissions'],
    breakage: () => ({
      request: (r) => {
        if (r.url.pathname === '/node/api/limit-block-log' && basicPair(r)?.[0] === 'viewer') r.headers.authorization = adminBasic;
        return r;
      },
    }),
  },
  {
    name: 'session-cookie-readable',
    // Without Path=/ the cookie is not sent back to other paths: every session request fails then (auth-method-accepted).
    breaks: 'the session cookie comes without HttpOnly and SameSite',
    caughtBy: { check: 'session-cookie-attributes', operationId: 'createSession' },
    verdict: 'note',
    groups: ['authentication'],
    breakage: () => ({
      response: (r, res) => {
        const set = res.headers['set-cookie'];
        if (r.url.pathname !== '/node/api/users/session' || set === undefined) return res;
        const lines = (Array.isArray(set) ? set : [set]).map((line) => line.replace(/;\s*(HttpOnly|SameSite=[^;]*)/gi, ''));
        return { ...res, headers: { ...res.headers, 'set-cookie': lines } };
      },
    }),
  },
  {
    name: 'ignores-skip',
    breaks: 'skip is ignored',
    caughtBy: { check: 'pages-agree', operationId: 'getEventLog' },
    groups: ['event-log'],
    breakage: () => ({
      request: (r) => {
        if (isEventLog(r)) r.url.searchParams.delete('skip');
        return r;
      },
    }),
  },
  {
    name: 'default-sort-desc',
    breaks: 'the default sort direction is desc',
    caughtBy: { check: 'sort-order', operationId: 'getEventLog' },
    groups: ['event-log'],
    breakage: () => ({
      request: (r) => {
        if (isEventLog(r) && !r.url.searchParams.has('sortDirection')) r.url.searchParams.set('sortDirection', 'desc');
        return r;
      },
    }),
  },
  {
    name: 'drops-agentId',
    breaks: 'event-log records lack the required agentId',
    caughtBy: { check: 'response-schema', operationId: 'getEventLog' },
    groups: ['event-log'],
    breakage: () => ({
      response: (r, res) => {
        if (!isEventLog(r) || res.status !== 200) return res;
        const records = JSON.parse(res.body) as Record<string, unknown>[];
        return { ...res, body: JSON.stringify(records.map(({ agentId: _dropped, ...rest }) => rest)) };
      },
    }),
  },
  {
    name: 'accepts-anonymous',
    breaks: 'requests without credentials are served as the administrator',
    caughtBy: { check: 'unauthenticated-refused', operationId: 'getEventLog' },
    groups: ['authentication'],
    breakage: () => ({
      request: (r) => (hasCredentials(r) ? r : { ...r, headers: { ...r.headers, authorization: adminBasic } }),
    }),
  },
  {
    name: 'server-error-on-bad-filter',
    breaks: 'a filter that is not JSON gets a 500',
    caughtBy: { check: 'not-server-error', operationId: 'getEventLog' },
    groups: ['event-log'],
    breakage: () => ({
      request: (r) => {
        const filter = r.url.searchParams.get('filter');
        if (!isEventLog(r) || filter === null) return r;
        try {
          JSON.parse(filter);
          return r;
        } catch {
          return json(500, { status: 500, code: 'INTERNAL_ERROR', message: 'Unexpected token in JSON' });
        }
      },
    }),
  },
  {
    name: 'old-token-works',
    breaks: 'a token replaced by a new one keeps working (as the new one)',
    caughtBy: { check: 'token-state', operationId: 'createAuthToken' },
    verdict: 'note',
    shrunkTo: 3,
    groups: ['sequences'],
    breakage: () => {
      const latest = new Map<string, string>();
      const ownerOf = new Map<string, string>();
      return {
        request: (r) => {
          for (const name of ['api-token', 'auth-token']) {
            const sent = r.url.searchParams.get(name);
            const newer = sent === null ? undefined : latest.get(ownerOf.get(sent) ?? '');
            if (newer) r.url.searchParams.set(name, newer);
          }
          return r;
        },
        response: (r, res) => {
          const user = /\/users\/([^/]+)\/auth-token$/.exec(r.url.pathname)?.[1];
          if (r.method === 'POST' && user && res.status === 200) {
            const token = JSON.parse(res.body) as string;
            latest.set(user, token);
            ownerOf.set(token, user);
          }
          return res;
        },
      };
    },
  },
  {
    name: 'log-out-ignored',
    breaks: 'a log-out answers 204 and the session stays live',
    caughtBy: { check: 'session-state', operationId: 'deleteSession' },
    verdict: 'note',
    shrunkTo: 3,
    groups: ['sequences'],
    breakage: () => ({
      request: (r) => (r.method === 'DELETE' && r.url.pathname === '/node/api/users/session' ? json(204, undefined) : r),
    }),
  },
  {
    name: 'patch-other-record',
    breaks: 'a payload update writes the text of the next trap instead',
    caughtBy: { check: 'payload-update-persists', operationId: 'updateEventLogPayload' },
    shrunkTo: 2,
    groups: ['sequences'],
    breakage: () => onTraps((r, traps, at) => {
      if (traps.length > 1) r.url.pathname = `/node/api/event-log/${traps[(at + 1) % traps.length] ?? ''}/payload`;
      return r;
    }),
  },
  {
    name: 'patch-not-persisted',
    breaks: 'a payload update of a trap answers 204 and is dropped',
    caughtBy: { check: 'payload-update-persists', operationId: 'updateEventLogPayload' },
    shrunkTo: 2,
    groups: ['sequences'],
    breakage: () => onTraps(() => json(204, undefined)),
  },
  {
    name: 'accepts-any-token',
    breaks: 'any api-token is swapped for a valid one (forged and revoked tokens work)',
    caughtBy: { check: 'wrong-credentials-refused', operationId: 'getCurrentUser' },
    groups: ['authentication', 'cases'],
    breakage: ({ spareToken }) => ({
      request: (r) => {
        if (r.url.searchParams.has('api-token')) r.url.searchParams.set('api-token', spareToken);
        return r;
      },
    }),
  },
  {
    name: 'ignores-type',
    breaks: 'type is ignored',
    caughtBy: { check: 'type-filter', operationId: 'getEventLog' },
    groups: ['event-log'],
    breakage: () => ({
      request: (r) => {
        if (isEventLog(r)) r.url.searchParams.delete('type');
        return r;
      },
    }),
  },
  {
    name: 'string-timestamp',
    breaks: 'event-log timestamps come as strings of digits',
    caughtBy: { check: 'response-schema', operationId: 'getEventLog' },
    groups: ['event-log'],
    breakage: () => eachRecord((record) => ({ ...record, timestamp: String(record.timestamp) })),
  },
  {
    name: 'string-entityType',
    breaks: 'entity.entityType comes as a string',
    caughtBy: { check: 'response-schema', operationId: 'getEventLog' },
    groups: ['event-log'],
    breakage: () => eachRecord((record) => ({ ...record, entity: { ...(record.entity as object), entityType: String((record.entity as { entityType?: unknown }).entityType) } })),
  },
  {
    name: 'text-error-bodies',
    breaks: 'error answers are text/plain (the spec does not show error bodies)',
    caughtBy: { check: 'content-type', operationId: 'getEventLog' },
    verdict: 'note',
    groups: ['authentication', 'event-log'],
    breakage: () => ({
      response: (_r, res) => (res.status < 400 ? res : { status: res.status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `error ${res.status}` }),
    }),
  },
  {
    name: 'text-token',
    breaks: 'the token of 4.1 comes as a bare text/plain UUID, as the real docs show (the spec does not show the body)',
    caughtBy: { check: 'content-type', operationId: 'createAuthToken' },
    verdict: 'note',
    groups: ['cases'],
    breakage: () => ({
      response: (r, res) =>
        r.method === 'POST' && r.url.pathname.endsWith('/auth-token') && res.status === 200
          ? { ...res, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: JSON.parse(res.body) as string }
          : res,
    }),
  },
  {
    name: 'leaked-password',
    breaks: 'the user record of /users/current carries a password field',
    caughtBy: { check: 'no-sensitive-data', operationId: 'getCurrentUser' },
    groups: [],
    breakage: () => ({
      response: (r, res) =>
        r.method === 'GET' && r.url.pathname === '/node/api/users/current' && res.status === 200
          ? { ...res, body: JSON.stringify({ ...(JSON.parse(res.body) as object), password: LEAKED_PASSWORD }) }
          : res,
    }),
  },
];
