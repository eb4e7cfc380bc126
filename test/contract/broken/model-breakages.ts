// Servers that read the list parameters wrongly, each in one way a real implementation could,
// with the check, operation and verdict that must catch it when judged against the model.
import { valueAtPath } from '../../../src/shared/field-path.js';
import { compareStrings, compareValues, sortKey } from '../../../src/shared/mongo-order.js';
import { json, type Breakage, type ProxiedRequest } from './breaking-proxy.js';

const on = (path: string) => (r: ProxiedRequest) => r.method === 'GET' && r.url.pathname === path;
const eventLog = on('/node/api/event-log');
const blockLog = on('/node/api/limit-block-log');
type Row = Record<string, unknown>;

/** Rewrites the records of a 200 answer of the requests `when` picks. */
function records(when: (r: ProxiedRequest) => boolean, change: (rows: Row[], r: ProxiedRequest) => Row[]): Breakage['response'] {
  return (r, res) => (when(r) && res.status === 200 ? { ...res, body: JSON.stringify(change(JSON.parse(res.body) as Row[], r)) } : res);
}

/** Rewrites a JSON filter: `change` sees every object in it. */
function filterRewrite(change: (node: Row) => Row): Breakage['request'] {
  const walk = (v: unknown): unknown => (Array.isArray(v) ? v.map(walk) : v !== null && typeof v === 'object' ? change(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))) : v);
  return (r) => {
    const filter = r.url.searchParams.get('filter');
    if (!eventLog(r) || filter === null) return r;
    try {
      r.url.searchParams.set('filter', JSON.stringify(walk(JSON.parse(filter))));
    } catch {
      // Not JSON: the server refuses it as it is.
    }
    return r;
  };
}

export interface ModelBreakage {
  readonly name: string;
  readonly breaks: string;
  readonly operationId: 'getEventLog' | 'getLimitBlockLog';
  readonly check: string;
  readonly verdict: 'violation' | 'note';
  readonly breakage: Breakage;
}

export const modelBreakages: readonly ModelBreakage[] = [
  {
    name: 'limit-counts-the-skipped',
    breaks: 'paging: with skip and limit together, limit counts the skipped records too',
    operationId: 'getEventLog',
    check: 'pages-agree',
    verdict: 'violation',
    breakage: {
      request: (r) => {
        const [skip, limit] = [r.url.searchParams.get('skip'), r.url.searchParams.get('limit')];
        if (eventLog(r) && skip !== null && limit !== null) r.url.searchParams.set('limit', String(Math.max(0, Number(limit) - Number(skip))));
        return r;
      },
    },
  },
  {
    name: 'ties-by-id-ascending',
    breaks: 'ordering: ties come by _id ascending whatever the direction',
    operationId: 'getEventLog',
    check: 'sort-order',
    verdict: 'note',
    breakage: {
      response: records(eventLog, (rows, r) => {
        const q = r.url.searchParams;
        const segments = (q.get('sortField') ?? 'timestamp').split('.');
        const direction = q.get('sortDirection') === 'desc' ? 'desc' : 'asc';
        const sign = (direction === 'asc' ? 1 : -1) * (q.get('inverse') === 'true' ? -1 : 1);
        const key = (row: Row) => sortKey(valueAtPath(row, segments), direction);
        return [...rows].sort((a, b) => sign * compareValues(key(a), key(b)) || compareStrings(String(a._id), String(b._id)));
      }),
    },
  },
  {
    name: 'desc-ignored-with-a-field',
    breaks: 'ordering: sortDirection=desc is ignored when a sortField is given',
    operationId: 'getEventLog',
    check: 'sort-order',
    verdict: 'violation',
    breakage: {
      request: (r) => {
        if (eventLog(r) && r.url.searchParams.get('sortField') !== 'timestamp' && r.url.searchParams.has('sortField')) r.url.searchParams.delete('sortDirection');
        return r;
      },
    },
  },
  {
    name: 'ne-ignored',
    breaks: 'filtering: the $ne operator is ignored (its condition dropped)',
    operationId: 'getEventLog',
    check: 'filter-matches',
    verdict: 'note',
    breakage: { request: filterRewrite((node) => Object.fromEntries(Object.entries(node).filter(([, v]) => !(v !== null && typeof v === 'object' && '$ne' in v)))) },
  },
  {
    name: 'dotted-paths-literal',
    breaks: 'filtering: a dotted path names a top-level field of that name, not a nested one',
    operationId: 'getEventLog',
    check: 'filter-matches',
    verdict: 'note',
    breakage: { request: filterRewrite((node) => Object.fromEntries(Object.entries(node).map(([k, v]) => [k.startsWith('$') ? k : k.replaceAll('.', '_'), v]))) },
  },
  {
    name: 'exclusive-to',
    breaks: 'time bounds: `to` is exclusive',
    operationId: 'getEventLog',
    check: 'time-range',
    verdict: 'note',
    breakage: {
      request: (r) => {
        const q = r.url.searchParams;
        const to = q.get('to');
        if (!eventLog(r) || to === null) return r;
        if (Number(q.get('from') ?? -Infinity) > Number(to) - 1) return json(200, []);
        q.set('to', String(Number(to) - 1));
        return r;
      },
    },
  },
  {
    name: 'type-after-the-page',
    breaks: '`type` with a page: the page is cut from all records, then the type kept',
    operationId: 'getEventLog',
    check: 'type-filter',
    verdict: 'violation',
    breakage: {
      request: (r) => {
        const q = r.url.searchParams;
        if (eventLog(r) && q.has('type') && q.has('limit') && !q.has('skip')) {
          r.headers['x-type-after'] = q.get('type') ?? '';
          q.delete('type');
        }
        return r;
      },
      response: records(
        (r) => r.headers['x-type-after'] !== undefined,
        (rows, r) => rows.filter((row) => row.type === (r.headers['x-type-after'] === '1' ? 'snmp-trap' : 'mqtt-message')),
      ),
    },
  },
  {
    name: 'block-log-newest-first',
    breaks: 'block log: newest first',
    operationId: 'getLimitBlockLog',
    check: 'sort-order',
    verdict: 'note',
    breakage: { response: records(blockLog, (rows) => [...rows].reverse()) },
  },
  {
    name: 'ip-filter-ignored',
    breaks: 'block log: the ip filter is ignored',
    operationId: 'getLimitBlockLog',
    check: 'boolean-filter',
    verdict: 'violation',
    breakage: {
      request: (r) => {
        if (blockLog(r)) r.url.searchParams.delete('ip');
        return r;
      },
    },
  },
  {
    name: 'block-log-empty-without-limit',
    breaks: 'block log: an empty list when no limit is given',
    operationId: 'getLimitBlockLog',
    check: 'limit-honoured',
    verdict: 'note',
    breakage: { response: records((r) => blockLog(r) && !r.url.searchParams.has('limit'), () => []) },
  },
];
