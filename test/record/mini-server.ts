// A small stand-in of a real server, written in the test: sessions with sid and csrf cookies,
// the current user with a token, and the event log and block log paged as the document says
// (inclusive from/to, timestamp order with ties by _id, skip, limit), over whatever records the
// test gives, valid or not. `intercept` may answer any request first: a 429, a dropped socket.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostileServer, json, type HostileServer } from '../contract/hostile/hostile-server.js';

export interface MiniServerOptions {
  readonly events: unknown[];
  readonly blocks?: unknown[];
  readonly user?: Record<string, unknown>;
  readonly sid?: string;
  readonly csrf?: string;
  /** Answers a request instead of the server when it returns true. */
  readonly intercept?: (req: IncomingMessage, res: ServerResponse, path: string) => boolean;
}

const field = (r: unknown, name: string): unknown => (r !== null && typeof r === 'object' ? (r as Record<string, unknown>)[name] : undefined);
const time = (r: unknown): number => Number(field(r, 'timestamp'));

function page(records: readonly unknown[], query: URLSearchParams, sorted: boolean): unknown[] {
  const from = query.has('from') ? Number(query.get('from')) : -Infinity;
  const to = query.has('to') ? Number(query.get('to')) : Infinity;
  let list = records.filter((r) => time(r) >= from && time(r) <= to);
  if (sorted) {
    list = [...list].sort((a, b) => time(a) - time(b) || String(field(a, '_id')).localeCompare(String(field(b, '_id'))));
    if (query.get('sortDirection') === 'desc') list.reverse();
  }
  const skip = Number(query.get('skip') ?? 0);
  const limit = query.has('limit') ? Number(query.get('limit')) : list.length;
  return list.slice(skip, skip + limit);
}

export function miniServer(options: MiniServerOptions): Promise<HostileServer> {
  const sid = options.sid ?? 'c0ffee00-1111-4222-8333-444455556666';
  const csrf = options.csrf ?? 'csrf-7777-8888-9999';
  const user = options.user ?? { id: '5867948233835d9661c56dc8', login: 'admin', permissions: ['manage-users'] };
  return hostileServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (options.intercept?.(req, res, url.pathname)) return;
    if (url.pathname === '/node/api/users/session' && req.method === 'POST') {
      json(res, 200, sid, { 'set-cookie': [`sid=${sid}; Path=/; HttpOnly`, `csrf=${csrf}; Path=/`] } as never);
      return;
    }
    if (url.pathname === '/node/api/users/session' && req.method === 'DELETE') {
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'GET') {
      json(res, 405, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'no' });
      return;
    }
    if (url.pathname === '/node/api/users/current') json(res, 200, user);
    else if (url.pathname === '/node/api/event-log') json(res, 200, page(options.events, url.searchParams, true));
    else if (url.pathname === '/node/api/limit-block-log') json(res, 200, page(options.blocks ?? [], url.searchParams, false));
    else json(res, 404, { status: 404, code: 'ROUTE_NOT_FOUND', message: 'no' });
  });
}

/** A valid SNMP trap record. */
export function trap(n: number, timestamp: number, text = `trap ${n}`): Record<string, unknown> {
  return {
    _id: n.toString(16).padStart(24, '0'),
    type: 'snmp-trap',
    agentId: 'agent-1',
    timestamp,
    payload: { senderAddress: '10.1.2.3', trapOid: '1.3.6.1.6.3.1.1.5.3', text, bindings: [] },
    entity: { entityId: 'e-1', entityType: 1, entityName: 'core-sw-01' },
  };
}
