import fc from 'fast-check';
import type { Operation } from '../../../src/spec/index.js';
import { filterText } from './filter-values.js';
import { brokenJson, encodeText, headerText, hostileSegment, hostileText, oversizedJson } from './hostile-values.js';
import { asText, validValue } from './schema-values.js';

/** One request of the fuzz run, in the form `inject()` takes. */
export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

/** Live credentials and ids, so that generated requests reach handlers and not only the guard. */
export interface FuzzContext {
  readonly operations: readonly Operation[];
  readonly users: readonly { readonly login: string; readonly password: string; readonly id: string }[];
  readonly tokens: readonly string[];
  readonly sessions: readonly string[];
  /** Ids of existing event log records, when the fake has an event log. */
  readonly recordIds: readonly string[];
}

type Pair = readonly [string, string];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'QUERY', 'PROPFIND', 'SEARCH', 'MKCOL', 'PURGE'];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'text/plain',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/problem+json',
  'application/json, text/plain', 'application/', ';;;', 'image/png', '*/*',
];

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

/** Credentials: right, wrong, broken, repeated or mixed; as headers and query pairs. */
function credentials(ctx: FuzzContext): fc.Arbitrary<{ headers: Record<string, string>; query: Pair[] }> {
  const user = fc.constantFrom(...ctx.users);
  const token = ctx.tokens.length > 0 ? fc.oneof(fc.constantFrom(...ctx.tokens), fc.uuid()) : fc.uuid();
  const sid = ctx.sessions.length > 0 ? fc.oneof(fc.constantFrom(...ctx.sessions), fc.uuid()) : fc.uuid();
  const authorization = fc.oneof(
    user.map((u) => basic(u.login, u.password)),
    user.map((u) => basic(u.login, `${u.password}x`)),
    fc.tuple(fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 20 })).map(([l, p]) => basic(l, p)),
    fc.constantFrom('Basic', 'Basic ', 'Basic !!!', 'Basic ====', `Basic ${Buffer.from('no-colon').toString('base64')}`, 'Bearer abc', 'basic', 'Digest x'),
    user.map((u) => basic(u.login, u.password).replace('Basic', 'bAsIc')),
    fc.integer({ min: 1, max: 20_000 }).map((n) => `Basic ${'A'.repeat(n)}`),
    headerText(),
  );
  const cookie = fc.oneof(
    sid.map((s) => `sid=${s}`),
    fc.tuple(sid, sid).map(([a, b]) => `sid=${a}; sid=${b}`),
    headerText().map((t) => `sid=${t}`),
    fc.constantFrom('sid', 'sid=', '=;=;', 'sid=%zz', 'csrf=x'),
  );
  const tokenPairs = fc.oneof(
    token.map((t): Pair[] => [['api-token', t]]),
    token.map((t): Pair[] => [['auth-token', t]]),
    fc.tuple(token, token).map(([a, b]): Pair[] => [['api-token', a], ['api-token', b]]),
    fc.tuple(token, token).map(([a, b]): Pair[] => [['api-token', a], ['auth-token', b]]),
    hostileText.map((t): Pair[] => [['api-token', t]]),
  );
  const mixed = fc
    .record(
      {
        authorization,
        cookie,
        csrf: fc.oneof(headerText(250), fc.uuid()),
        tokens: tokenPairs,
      },
      { requiredKeys: [] },
    )
    .map((c) => ({
      headers: {
        ...(c.authorization !== undefined ? { authorization: c.authorization } : {}),
        ...(c.cookie !== undefined ? { cookie: c.cookie } : {}),
        ...(c.csrf !== undefined ? { 'x-csrf-token': c.csrf } : {}),
      },
      query: c.tokens ?? [],
    }));
  // One right credential, so that most requests get past the guard to validation and handlers.
  const clean = fc.oneof(
    user.map((u) => ({ headers: { authorization: basic(u.login, u.password) }, query: [] as Pair[] })),
    fc.constantFrom(...ctx.tokens).map((t) => ({ headers: {}, query: [['api-token', t]] as Pair[] })),
    fc.constantFrom(...ctx.sessions).map((s) => ({ headers: { cookie: `sid=${s}` }, query: [] as Pair[] })),
  );
  return fc.oneof({ arbitrary: clean, weight: 3 }, { arbitrary: mixed, weight: 2 });
}

/** A query pair for one documented parameter: a right value, a wrong one, or the parameter twice. */
function parameterPairs(op: Operation): fc.Arbitrary<Pair[]> {
  const perParameter = op.parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const right = p.name === 'filter' ? filterText : validValue(p.schema).map(asText);
      const value = fc.oneof({ arbitrary: right, weight: 3 }, { arbitrary: hostileText, weight: 1 });
      return fc.oneof(
        { arbitrary: fc.constant([] as Pair[]), weight: 2 },
        { arbitrary: value.map((v): Pair[] => [[p.name, v]]), weight: 4 },
        { arbitrary: fc.tuple(value, value).map(([a, b]): Pair[] => [[p.name, a], [p.name, b]]), weight: 1 },
      );
    });
  return fc.tuple(...perParameter).map((lists) => lists.flat());
}

const extraPairs = fc.array(fc.tuple(fc.oneof(hostileText, fc.constantFrom('limit', 'skip', 'x', '__proto__', 'a[b]', 'a.b')), hostileText), { maxLength: 2 });

function encodeQuery(pairs: readonly Pair[], raw: boolean): string {
  if (pairs.length === 0) return '';
  const encode = (text: string) => (raw ? text.replace(/[^\x21-\x7e]|#/g, encodeText) : encodeText(text));
  return `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;
}

/** The operation's path with each parameter a right value, a known id, or a hostile segment. */
function pathOf(op: Operation, ctx: FuzzContext): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1] as string);
  const known = op.path.includes('event-log') ? ctx.recordIds : ctx.users.map((u) => u.id);
  const segment = (name: string) => {
    const schema = op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema;
    const options = [validValue(schema).map(asText), hostileSegment];
    if (known.length > 0) options.push(fc.constantFrom(...known));
    return fc.oneof(...options.map((arbitrary) => ({ arbitrary: arbitrary as fc.Arbitrary<string>, weight: 1 })));
  };
  return fc.tuple(...names.map(segment)).map((values) => {
    let path = op.path;
    names.forEach((name, i) => {
      path = path.replace(`{${name}}`, values[i] as string);
    });
    return path;
  });
}

function bodyFor(op: Operation): fc.Arbitrary<string | undefined> {
  const valid = op.requestBody ? validValue(op.requestBody.schema).map((v) => JSON.stringify(v)) : fc.jsonValue().map((v) => JSON.stringify(v));
  return fc.oneof(
    { arbitrary: fc.constant(undefined), weight: op.requestBody ? 1 : 4 },
    { arbitrary: valid, weight: 4 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 1 },
    { arbitrary: brokenJson, weight: 2 },
    { arbitrary: oversizedJson, weight: 1 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }), weight: 1 },
  );
}

function operationRequest(op: Operation, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constant(op.method.toUpperCase()), weight: 9 }, { arbitrary: fc.constantFrom(...METHODS), weight: 1 }),
      path: pathOf(op, ctx),
      pairs: parameterPairs(op),
      extra: extraPairs,
      rawQuery: fc.boolean(),
      credentials: credentials(ctx),
      contentType: fc.option(fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerText(60)), { nil: undefined, freq: 4 }),
      body: bodyFor(op),
      shuffle: fc.boolean(),
    })
    .map((r) => {
      const pairs = [...r.pairs, ...r.credentials.query, ...r.extra];
      if (r.shuffle) pairs.reverse();
      const contentType = r.contentType ?? (r.body !== undefined ? 'application/json' : undefined);
      return {
        method: r.method,
        url: r.path + encodeQuery(pairs, r.rawQuery),
        headers: { ...r.credentials.headers, ...(contentType !== undefined ? { 'content-type': contentType } : {}) },
        ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { payload: r.body } : {}),
      };
    });
}

/** Paths near the API's and far from it: case, slashes, dot segments, encodings, length. */
const strayPath = fc.oneof(
  fc.constantFrom(
    '/', '', '//node/api/users/current', '/node/api/users/current/', '/NODE/API/users/current', '/node/api/users/current;x',
    '/node/api/users/current%00', '/node/api/event-log/../users/current', '/node/api/users/curr%65nt', '/node/api/', '/node/api',
    '/node/api/users', '/node/api/event-log/', '/node/api/event-log//payload', '/node/api/users//auth-token', '/%', '/%zz', '/*', '/?',
    '/node/api/limit-block-log/x', '/__proto__', '/node/api/users/session/x', '/favicon.ico',
  ),
  fc.array(hostileSegment, { minLength: 1, maxLength: 5 }).map((s) => `/node/api/${s.join('/')}`),
  fc.integer({ min: 1, max: 8_000 }).map((n) => `/node/api/${'a/'.repeat(n)}`),
  fc.string({ unit: 'grapheme', maxLength: 50 }).map((s) => `/${encodeText(s)}`),
);

function strayRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ method: fc.constantFrom(...METHODS), path: strayPath, credentials: credentials(ctx), extra: extraPairs, body: fc.option(brokenJson, { nil: undefined }) })
    .map((r) => ({
      method: r.method,
      url: (r.path.startsWith('/') ? r.path : `/${r.path}`) + encodeQuery([...r.credentials.query, ...r.extra], false),
      headers: { ...r.credentials.headers, ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { payload: r.body } : {}),
    }));
}

/** Requests across every operation of the document, mostly malformed, and some to no operation at all. */
export function fuzzRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { arbitrary: fc.oneof(...ctx.operations.map((op) => operationRequest(op, ctx))), weight: 5 },
    { arbitrary: strayRequest(ctx), weight: 1 },
  );
}
