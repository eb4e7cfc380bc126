// The deliberately broken variants of the fake, one thing broken each, with the check that must catch it.
import type { Breakage, ProxiedRequest } from './breaking-proxy.js';
import { json } from './breaking-proxy.js';

const isEventLog = (r: ProxiedRequest): boolean => r.method === 'GET' && r.url.pathname === '/node/api/event-log';
const hasCredentials = (r: ProxiedRequest): boolean =>
  r.headers.authorization !== undefined || /(^|;\s*)sid=/.test(r.headers.cookie ?? '') || r.url.searchParams.has('api-token') || r.url.searchParams.has('auth-token');
/** The password the leaked-password variant adds to user records: it must never reach a report. */
export const LEAKED_PASSWORD = 'leaked-server-side-password';

const adminBasic = `Basic ${Buffer.from('admin:admin-password').toString('base64')}`;

/** Rewrites each event-log record of a 200 answer. */
function eachRecord(change: (record: Record<string, unknown>) => Record<string, unknown>): Breakage {
  return {
    response: (r, res) => {
      if (!isEventLog(r) || res.status !== 200) return res;
      return { ...res, body: JSON.stringify((JSON.parse(res.body) as Record<string, unknown>[]).map(change)) };
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
  /** Some variants need a valid token of a user the run does not use. */
  breakage(context: { readonly spareToken: string }): Breakage;
}

export const brokenVariants: readonly BrokenVariant[] = [
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
    name: 'patch-not-persisted',
    breaks: 'a payload update answers 204 and is dropped',
    caughtBy: { check: 'payload-update-persists', operationId: 'updateEventLogPayload' },
    groups: ['payload-update'],
    breakage: () => ({
      request: (r) => (r.method === 'PATCH' && /\/payload$/.test(r.url.pathname) && hasCredentials(r) ? json(204, undefined) : r),
    }),
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
