// --anonymize: IP addresses become addresses of the documentation ranges, entity names, logins
// and ids become stand-ins, the same input always the same output within a recording, so a
// device stays one device across its records and free text. OIDs, types, timestamps, record
// ids and the shape of every value stay, so the records stay valid and the fake serves them alike.
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';

type Json = unknown;

/** TEST-NET-1, -2 and -3 (RFC 5737), then the benchmarking range 198.18.0.0/15 (RFC 2544) when those run out. */
const IPV4_POOLS: readonly { base: number; size: number }[] = [
  { base: ip4('192.0.2.0'), size: 254 },
  { base: ip4('198.51.100.0'), size: 254 },
  { base: ip4('203.0.113.0'), size: 254 },
  { base: ip4('198.18.0.0'), size: 2 ** 17 - 2 },
];

function ip4(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const dotted = (n: number): string => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');

const IPV4_IN_TEXT = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!\.?\d)/g;
const IPV6_IN_TEXT = /(?<![\w:.])[0-9A-Fa-f:]*:[0-9A-Fa-f:]*[0-9A-Fa-f](?:\.\d{1,3}){0,3}(?![\w:])/g;
const OBJECT_ID = /^[0-9a-f]{24}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Names are looked for in free text where a word starts: after a space, `=`, a bracket, a quote... */
const WORDS = /[^\s=,;()[\]{}"'<>|]+/g;
const MIN_NAME_LENGTH = 3;

const isObject = (value: Json): value is Record<string, Json> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A new anonymizer; its ids come from a key drawn per recording, so they cannot be traced back. */
export function createAnonymizer(key: Buffer = randomBytes(32)) {
  const ips = new Map<string, string>();
  const ids = new Map<string, string>();
  const names = new Map<string, string>();
  const logins = new Map<string, string>();
  let v4 = 0;
  let v6 = 0;
  // Names and logins that free text may mention, by their first word, longest first.
  let byFirstWord = new Map<string, string[]>();

  const hash = (value: string): string => createHmac('sha256', key).update(value).digest('hex');

  function ip(address: string): string {
    let mapped = ips.get(address);
    if (mapped) return mapped;
    if (isIP(address) === 6) mapped = `2001:db8::${(v6 += 1).toString(16)}`;
    else {
      let n = v4++;
      const pool = IPV4_POOLS.find((p) => (n < p.size ? true : ((n -= p.size), false)));
      if (!pool) throw new Error('too many distinct IPv4 addresses to map into the documentation and benchmarking ranges');
      mapped = dotted(pool.base + 1 + n);
    }
    ips.set(address, mapped);
    return mapped;
  }

  function id(value: string): string {
    let mapped = ids.get(value);
    if (mapped) return mapped;
    const h = hash(`id:${value}`);
    mapped = OBJECT_ID.test(value) ? h.slice(0, 24) : UUID.test(value) ? `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}` : `id-${h.slice(0, 16)}`;
    ids.set(value, mapped);
    return mapped;
  }

  const stand = (map: Map<string, string>, prefix: string) => (value: string): string => {
    let mapped = map.get(value);
    if (!mapped) map.set(value, (mapped = `${prefix}-${map.size + 1}`));
    return mapped;
  };
  const name = stand(names, 'entity');
  const login = stand(logins, 'user');

  /** A copy of an object with its string fields named in `maps` mapped; anything else as it is. */
  function mapped<T>(value: T, maps: Readonly<Record<string, (text: string) => string>>): T {
    if (!isObject(value)) return value;
    const out: Record<string, Json> = { ...value };
    for (const [key, map] of Object.entries(maps)) if (typeof out[key] === 'string') out[key] = map(out[key]);
    return out as T;
  }

  /** Free text with its IP addresses, entity names and logins replaced. */
  function text(value: string): string {
    const withIps = value.replace(IPV4_IN_TEXT, (m) => (isIP(m) === 4 ? ip(m) : m)).replace(IPV6_IN_TEXT, (m) => (isIP(m) === 6 ? ip(m) : m));
    if (byFirstWord.size === 0) return withIps;
    let out = '';
    let at = 0;
    for (const token of withIps.matchAll(WORDS)) {
      const start = token.index;
      if (start < at) continue;
      const word = token[0].replace(/[.:!?]+$/, '');
      const found = (byFirstWord.get(word) ?? byFirstWord.get(token[0]))?.find((n) => withIps.startsWith(n, start) && !/[\w-]/.test(withIps[start + n.length] ?? ''));
      if (found) {
        out += withIps.slice(at, start) + (names.get(found) ?? logins.get(found) ?? found);
        at = start + found.length;
      }
    }
    return out + withIps.slice(at);
  }

  /** Strings anywhere in a payload as free text; OIDs and the values of OID bindings as they are. */
  function payloadValue(value: Json, key?: string, binding?: Record<string, Json>): Json {
    if (typeof value === 'string') {
      if (key === 'oid' || key === 'trapOid' || binding?.type === 'ObjectIdentifier') return value;
      if (key === 'senderAddress' || binding?.type === 'IpAddress') return isIP(value) ? ip(value) : text(value);
      return text(value);
    }
    if (Array.isArray(value)) return value.map((v) => payloadValue(v, key));
    if (!isObject(value)) return value;
    const isBinding = typeof value.oid === 'string' && 'value' in value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'value' && isBinding ? payloadValue(v, k, value) : payloadValue(v, k)]));
  }

  return {
    /** Reads the names and logins to look for in free text; call with everything before mapping any of it. */
    learn(events: readonly Json[], blocks: readonly Json[], user: Json): void {
      for (const e of events) if (isObject(e) && isObject(e.entity) && typeof e.entity.entityName === 'string') name(e.entity.entityName);
      for (const b of [...blocks, user]) if (isObject(b) && typeof b.login === 'string') login(b.login);
      byFirstWord = new Map();
      for (const original of [...names.keys(), ...logins.keys()]) {
        if (original.length < MIN_NAME_LENGTH) continue;
        const first = original.match(WORDS)?.[0] ?? original;
        byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), original].sort((a, b) => b.length - a.length));
      }
    },
    event<T>(record: T): T {
      if (!isObject(record)) return record;
      const out: Record<string, Json> = mapped(record, { agentId: id });
      if (isObject(out.entity)) out.entity = mapped(out.entity, { entityId: id, entityName: name });
      if ('payload' in out) out.payload = payloadValue(out.payload);
      return out as typeof record;
    },
    block: <T>(record: T): T => mapped(record, { ip: (value) => (isIP(value) ? ip(value) : text(value)), login, user: id }),
    user: <T>(user: T): T => mapped(user, { id, login }),
  };
}
