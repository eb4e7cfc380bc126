// The steps of a sequence as fast-check commands: each sends one request, says from the model
// what it must answer (a finding stops the run), and moves the model on.
import fc from 'fast-check';
import { bodyToken, schemeKey, setCookieLines } from '../../client/credentials.js';
import { Cookie } from 'tough-cookie';
import type { Row } from '../../plans/plan.js';
import { accepted, judge, statusOf, step, unanswered, type Person, type SessionFact, type StateModel, type StateReal, type TokenFact, comparePage } from './state-model.js';

type Command = fc.AsyncCommand<StateModel, StateReal>;

const cookieOf = (exchange: Parameters<typeof setCookieLines>[0], name: string): string | undefined =>
  setCookieLines(exchange).map((line) => Cookie.parse(line)).find((cookie) => cookie?.key === name && cookie.value)?.value;

const sessionCookie = (real: StateReal): string => schemeKey(real.ctx.spec, 'sessionCookie');

const pick = <T>(items: readonly T[], i: number): T | undefined => items[i % Math.max(items.length, 1)];

const command = (name: string, check: (m: StateModel) => boolean, run: (m: StateModel, r: StateReal) => Promise<void>): Command => ({ check, run, toString: () => name });

/** POST a new token for the subject: the one it had stops working. */
const createToken = (): Command =>
  command('create a token', () => true, async (m, r) => {
    const subject = r.subject as Person;
    const { exchange, n } = await step(r, { operationId: 'createAuthToken', path: { id: subject.user.id }, auth: 'basic' }, 'create-token');
    if (!accepted(exchange)) {
      if (unanswered(exchange)) m.current = undefined;
      return;
    }
    const token = bodyToken(exchange.response);
    if (token === undefined) return;
    const old = m.tokens.find((t) => t.value === token);
    judge(r, exchange, 'token-state', 'createAuthToken', old ? { message: `the new token is the one step ${old.step} gave`, expected: 'a new token, the old one replaced', citation: r.cite.tokenUsable } : undefined);
    for (const t of m.tokens) if (t.state === 'live') Object.assign(t, { state: 'replaced', step: n });
    m.tokens.push({ value: token, state: 'live', step: n });
    m.current = token;
  });

/** DELETE the subject's token: it stops working and the record shows none. */
const revokeToken = (): Command =>
  command('revoke the token', () => true, async (m, r) => {
    const subject = r.subject as Person;
    const { exchange, n } = await step(r, { operationId: 'revokeAuthToken', path: { id: subject.user.id }, auth: 'basic' }, 'revoke-token');
    if (unanswered(exchange)) {
      for (const t of m.tokens) if (t.state === 'live') t.state = 'unknown';
      m.current = undefined;
    }
    if (!accepted(exchange)) return;
    for (const t of m.tokens) if (t.state === 'live') Object.assign(t, { state: 'revoked', step: n });
    m.current = null;
  });

/** Log in as one of the people. */
const logIn = (who: number): Command =>
  command(`log in as person ${who}`, () => true, async (m, r) => {
    const person = pick(r.people, who) as Person;
    const { exchange, n } = await step(r, { operationId: 'createSession', actor: 'anonymous', auth: 'none', body: { login: person.login, password: person.password } }, 'log-in');
    const sid = accepted(exchange) ? cookieOf(exchange, sessionCookie(r)) : undefined;
    if (sid) m.sessions.push({ sid, csrf: cookieOf(exchange, 'csrf'), login: person.login, state: 'live', step: n });
  });

/** Log one live session out. */
const logOut = (which: number): Command =>
  command(`log out session ${which}`, (m) => m.sessions.some((s) => s.state === 'live'), async (m, r) => {
    const session = pick(m.sessions.filter((s) => s.state === 'live'), which);
    if (!session) return;
    const cookies = { [sessionCookie(r)]: session.sid, ...(session.csrf ? { csrf: session.csrf } : {}) };
    const { exchange, n } = await step(r, { operationId: 'deleteSession', actor: 'anonymous', auth: 'none', cookies, headers: session.csrf ? { 'x-csrf-token': session.csrf } : {} }, 'log-out');
    if (statusOf(exchange) === 401) {
      judge(r, exchange, 'session-state', 'createSession', { message: `the log-out of the session logged in at step ${session.step} was refused with 401`, expected: 'the live session logged out', citation: r.cite.sessionUsable });
    }
    if (accepted(exchange)) Object.assign(session, { state: 'ended', step: n });
    else if (unanswered(exchange)) session.state = 'unknown';
  });

/** GET the current user with Basic: the subject's record shows the token the model knows. */
const readBasic = (which: number): Command =>
  command(`read the current user with Basic of person ${which}`, () => true, async (m, r) => {
    const person = pick(r.people, which) as Person;
    const { exchange } = await step(r, { operationId: 'getCurrentUser', actor: person.actor, auth: 'basic' }, 'read-basic');
    if (person.user.id === r.subject?.user.id) shownToken(m, r, exchange);
  });

/** GET the current user with a credential the sequence made: a session cookie (live or logged out) or a token (live, replaced or revoked). */
const readWith = (which: number, param: 'api-token' | 'auth-token'): Command =>
  command(`read the current user with credential ${which} (a token as ${param})`, (m) => known(m).length > 0, async (m, r) => {
    const credential = pick(known(m), which);
    if (credential && 'sid' in credential) await readSession(m, r, credential);
    else if (credential) await readToken(m, r, credential, param);
  });

/** The credentials the model knows, the one a step changed last first (small indexes are drawn most). */
const known = (m: StateModel): (SessionFact | TokenFact)[] => [...m.sessions, ...m.tokens].filter((c) => c.state !== 'unknown').sort((a, b) => b.step - a.step);

async function readSession(m: StateModel, r: StateReal, session: SessionFact): Promise<void> {
    const live = session.state === 'live';
    const { exchange } = await step(r, { operationId: 'getCurrentUser', actor: 'anonymous', auth: 'none', cookies: { [sessionCookie(r)]: session.sid } }, 'read-session');
    if (unanswered(exchange)) return;
    const answered = (exchange.response?.json as Row | undefined)?.login;
    const wrong = live ? !accepted(exchange) || answered !== session.login : accepted(exchange);
    judge(r, exchange, 'session-state', live ? 'createSession' : 'deleteSession', wrong ? {
      message: live ? `the session logged in at step ${session.step} as "${session.login}" answered ${statusOf(exchange)}${accepted(exchange) ? ` as ${JSON.stringify(answered)}` : ''}` : `the session logged out at step ${session.step} was accepted with ${statusOf(exchange)}`,
      expected: live ? `200 with the record of "${session.login}"` : '401',
      citation: live ? r.cite.sessionUsable : r.cite.sessionEnded,
    } : undefined);
}

async function readToken(m: StateModel, r: StateReal, token: TokenFact, param: 'api-token' | 'auth-token'): Promise<void> {
    const live = token.state === 'live';
    const { exchange } = await step(r, { operationId: 'getCurrentUser', actor: 'anonymous', auth: 'none', query: { [param]: token.value } }, 'read-token');
    const code = (exchange.response?.json as Row | undefined)?.code;
    if (unanswered(exchange) || code === 'TOKEN_AUTH_DISABLED') return;
    if (live) {
      const answered = (exchange.response?.json as Row | undefined)?.id;
      const wrong = !accepted(exchange) || answered !== r.subject?.user.id;
      judge(r, exchange, 'token-state', 'createAuthToken', wrong ? { message: `the token created at step ${token.step} answered ${statusOf(exchange)}${accepted(exchange) ? ` as user ${JSON.stringify(answered)}` : ''}`, expected: `200 with the record of user ${r.subject?.user.id ?? ''}`, citation: r.cite.tokenUsable } : undefined);
      shownToken(m, r, exchange);
      return;
    }
    const replaced = token.state === 'replaced';
    judge(r, exchange, 'token-state', replaced ? 'createAuthToken' : 'revokeAuthToken', accepted(exchange) ? {
      message: `the token ${replaced ? 'replaced' : 'revoked'} at step ${token.step} was accepted with ${statusOf(exchange)}`,
      expected: '401: a replaced or revoked token stops working',
      citation: replaced ? r.cite.tokenReplaced : r.cite.tokenRevoked,
    } : undefined);
}

/** The subject's record shows the token the model knows as current, or none after a revocation. */
function shownToken(m: StateModel, r: StateReal, exchange: Parameters<typeof accepted>[0]): void {
  if (!accepted(exchange) || m.current === undefined) return;
  const shown = (exchange.response?.json as Row | undefined)?.authenticationToken;
  const current = m.tokens.find((t) => t.value === m.current);
  if (m.current === null) {
    const revoked = m.tokens.find((t) => t.state === 'revoked');
    judge(r, exchange, 'token-state', 'revokeAuthToken', shown !== undefined ? { message: `the user record still shows a token after the revocation at step ${revoked?.step ?? '?'}`, expected: 'no authenticationToken', citation: r.cite.tokenRevoked } : undefined);
    return;
  }
  judge(r, exchange, 'token-state', 'createAuthToken', shown !== m.current ? { message: `the user record shows ${shown === undefined ? 'no token' : 'another token'}, not the one created at step ${current?.step ?? '?'}`, expected: 'authenticationToken: the token created last', citation: r.cite.tokenShown } : undefined);
}

/** PATCH the text of a trap (accepted) or of an MQTT record (refused), as the administrator. */
const patchText = (kind: 'snmp-trap' | 'mqtt', which: number, word: number): Command =>
  command(`update the text of ${kind} ${which}`, () => true, async (m, r) => {
    const records = r.window.records.filter((x) => (kind === 'snmp-trap') === (x.type === 'snmp-trap'));
    const record = pick(records, which);
    if (!record) return;
    const id = String(record._id);
    const text = `contract-check ${r.ctx.seed} ${word}`;
    r.touched.add(id);
    const { exchange, n } = await step(r, { operationId: 'updateEventLogPayload', path: { id }, body: { text }, auth: 'basic' }, `patch-${kind}`);
    m.patched ??= n;
    if (unanswered(exchange)) {
      if (kind === 'mqtt') m.spoiled.add(id);
      else m.texts.set(id, { text: undefined, step: n });
      return;
    }
    const status = statusOf(exchange) ?? 0;
    if (kind === 'mqtt') {
      if (status < 400) m.spoiled.add(id);
      judge(r, exchange, 'mqtt-update-refused', 'updateEventLogPayload', status === 422 ? undefined : {
        message: `the update of MQTT record ${id} was ${status < 400 ? 'accepted' : 'refused'} with ${status}`,
        expected: 'refused with 422',
        citation: status < 400 ? r.cite.snmpOnly : r.cite.snmpOnlyStatus,
      });
      return;
    }
    judge(r, exchange, 'payload-update-persists', 'updateEventLogPayload', accepted(exchange) ? undefined : { message: `the update of trap ${id} by the administrator was refused with ${status}`, expected: 'accepted (2xx)', citation: r.cite.payload });
    m.texts.set(id, { text, step: n });
  });

/** GET a page of the window: every record as the model says, the updated texts included. */
const readPage = (skip: number, limit: number | null): Command =>
  command(`read the window, skip ${skip}${limit === null ? '' : `, limit ${limit}`}`, () => true, async (m, r) => {
    const query = { ...r.window.query, ...(skip > 0 ? { skip: String(skip) } : {}), ...(limit === null ? {} : { limit: String(limit) }) };
    const { exchange } = await step(r, { operationId: 'getEventLog', query }, 'read-page');
    const finding = comparePage(m, r.window, exchange, r.cite.payload);
    if (finding !== null) judge(r, exchange, 'payload-update-persists', 'updateEventLogPayload', finding);
  });

/**
 * The commands of each kind of sequence: tokens, sessions, payloads, each with its writes and the
 * reads that see their effect (an entry twice where it needs a step before it to mean anything).
 * A sequence draws from one kind, so the step that sets an expectation and the read that judges
 * it come close together.
 */
export function commandArbitraries(windowSize: number): Record<'tokens' | 'sessions' | 'payloads', fc.Arbitrary<Command>[]> {
  const read = fc.tuple(fc.nat(7), fc.constantFrom<'api-token' | 'auth-token'>('api-token', 'auth-token')).map(([which, p]) => readWith(which, p));
  const trap = fc.tuple(fc.nat(7), fc.nat(999)).map(([which, word]) => patchText('snmp-trap', which, word));
  const page = fc.tuple(fc.nat(Math.max(windowSize - 1, 0)), fc.option(fc.integer({ min: 1, max: Math.max(windowSize, 1) }))).map(([skip, limit]) => readPage(skip, limit));
  return {
    tokens: [fc.constant(createToken()), fc.constant(createToken()), fc.constant(revokeToken()), read, read, fc.nat(3).map(readBasic)],
    sessions: [fc.nat(3).map(logIn), fc.nat(3).map(logIn), fc.nat(3).map(logOut), read, read],
    payloads: [trap, trap, fc.tuple(fc.nat(3), fc.nat(999)).map(([which, word]) => patchText('mqtt', which, word)), page, fc.constant(readPage(0, null))],
  };
}
