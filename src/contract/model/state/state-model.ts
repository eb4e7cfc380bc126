// A small model of what a sequence of writes did: the tokens it created (live, replaced or
// revoked), the sessions it opened (live or logged out) and the texts it wrote. From it each later
// step knows what the server must answer; the rules it judges by are checks reported on the
// operation whose effect was wrong. What a step could not learn (no answer, a 5xx) is `unknown`.
import { defineCheck, failure, citeOperation, citeResponse, resolveCitation, type FailureInput } from '../../checks/check.js';
import type { Citation, Exchange, Actor } from '../../types.js';
import type { Row, PlanContext } from '../../plans/plan.js';
import type { Spec, User } from '../../../spec/index.js';
import { canonical } from '../list-model.js';
import type { Call } from '../../client/api-client.js';

/** What the model found wrong at a step. */
/** What the model found wrong, on the operation whose effect was wrong: the step that set the expectation. */
export type Finding = FailureInput & { readonly check: StateCheckName; readonly operationId: string };

const judged = <const Name extends string>(name: Name, title: string) =>
  defineCheck({
    name,
    title,
    run(exchange, _context, facts: { readonly finding?: Finding }) {
      const found = facts.finding;
      return found ? [failure(this, exchange, found)] : [];
    },
  });

export const tokenState = judged('token-state', 'An API token works until it is replaced or revoked, and the user record shows the current one');
export const sessionState = judged('session-state', 'A session cookie works until it is logged out');
export const payloadUpdatePersists = judged('payload-update-persists', "A payload update changes that record's text, nothing else, and persists");
export const mqttUpdateRefused = judged('mqtt-update-refused', 'A payload update of an MQTT record is refused');

export const stateChecks = [tokenState, sessionState, payloadUpdatePersists, mqttUpdateRefused] as const;
export type StateCheckName = (typeof stateChecks)[number]['name'];

const textOf = (record: Row | undefined): unknown => (record?.payload as Row | undefined)?.text;

function withoutText(record: Row): string {
  const payload = { ...(record.payload as Row | undefined) };
  delete payload.text;
  return canonical({ ...record, payload });
}

const quoted = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : String(value));

/**
 * The finding of a page (undefined: it holds), or null when the page says nothing of the model:
 * not a list, or no update was made yet.
 */
export function comparePage(m: StateModel, window: Window, exchange: Exchange, citation: Citation): Omit<Finding, 'check' | 'operationId'> | undefined | null {
  const list = exchange.response?.json;
  if (m.patched === undefined || !Array.isArray(list) || (exchange.response?.status ?? 0) >= 300) return null;
  const before = new Map(window.records.map((r) => [String(r._id), r]));
  for (const record of list as Row[]) {
    const id = String(record._id);
    const original = before.get(id);
    if (!original || m.spoiled.has(id)) continue;
    const fact = m.texts.get(id);
    const text = textOf(record);
    if (fact?.text !== undefined && text !== fact.text) {
      return { message: `record ${id} shows the text ${quoted(text)}, not the one the update at step ${fact.step} wrote`, expected: `payload.text = ${quoted(fact.text)}`, citation };
    }
    if (!fact && text !== textOf(original)) {
      return { message: `record ${id}, which no update named, shows the text ${quoted(text)} instead of ${quoted(textOf(original))} (the first update was step ${m.patched})`, expected: 'records no update named unchanged', citation };
    }
    if (withoutText(record) !== withoutText(original)) {
      return { message: `fields of record ${id} other than payload.text changed (the first update was step ${m.patched})`, expected: 'only payload.text changed, and only on the record updated', citation };
    }
  }
  return undefined;
}

export interface TokenFact {
  readonly value: string;
  state: 'live' | 'replaced' | 'revoked' | 'unknown';
  /** The step that created it, then the one that replaced or revoked it. */
  step: number;
}

export interface SessionFact {
  readonly sid: string;
  readonly csrf?: string;
  readonly login: string;
  state: 'live' | 'ended' | 'unknown';
  step: number;
}

export interface StateModel {
  readonly tokens: TokenFact[];
  /** The subject's current token as the sequence knows it: a value, null after a revocation, undefined when unknown. */
  current: string | null | undefined;
  readonly sessions: SessionFact[];
  /** By record: the text it must show (undefined when a write got no answer) and the update that wrote it. */
  readonly texts: Map<string, { readonly text: string | undefined; readonly step: number }>;
  /** The MQTT records an accepted update may have changed. */
  readonly spoiled: Set<string>;
  /** The first payload update's step. */
  patched?: number;
}

/** A user who may log in, and whose record a Basic read returns. */
export interface Person {
  readonly actor: Exclude<Actor, 'anonymous'>;
  readonly user: User;
  readonly login: string;
  readonly password: string;
}

/** The records every read of a sequence is confined to: a time window read whole before the runs. */
export interface Window {
  readonly query: Readonly<Record<string, string>>;
  readonly records: readonly Row[];
}

/** What a step found wrong; the run stops there and fast-check shrinks the sequence. */
export class ModelFailure extends Error {
  constructor(
    readonly finding: Finding,
    readonly steps: readonly Exchange[],
  ) {
    super(finding.message);
  }
}

export interface StateReal {
  readonly ctx: PlanContext;
  /** The citations of the rules (citations()). */
  readonly cite: ReturnType<typeof citations>;
  readonly window: Window;
  /** The user tokens are created for (never the administrator). */
  readonly subject?: Person;
  /** Who may log in and read: the administrator first. */
  readonly people: readonly Person[];
  /** This run's requests, in order. */
  readonly steps: Exchange[];
  /** Records this run updated, to put their text back. */
  readonly touched: Set<string>;
  /** Records the model judged fine at a step, by check (for the outcome's `ok`). */
  judged(check: StateCheckName, operationId: string, exchange: Exchange): void;
}

export const emptyModel = (): StateModel => ({ tokens: [], current: undefined, sessions: [], texts: new Map(), spoiled: new Set() });

/** Sends one step of the sequence and keeps it for the repro; returns it with its 1-based number. */
export async function step(real: StateReal, call: Omit<Call, 'key'>, name: string): Promise<{ exchange: Exchange; n: number }> {
  const exchange = await real.ctx.send({ ...call, key: `sequence/${real.steps.length + 1}/${name}` });
  real.steps.push(exchange);
  return { exchange, n: real.steps.length };
}

/** Judges a step: a finding stops the run, nothing counts as an `ok` of the check. */
export function judge(real: StateReal, exchange: Exchange, check: StateCheckName, operationId: string, finding?: Omit<Finding, 'check' | 'operationId'>): void {
  if (finding) throw new ModelFailure({ check, operationId, ...finding }, [...real.steps]);
  real.judged(check, operationId, exchange);
}

export const statusOf = (exchange: Exchange): number | undefined => exchange.response?.status;
export const accepted = (exchange: Exchange): boolean => Math.floor((statusOf(exchange) ?? 0) / 100) === 2;
/** An answer that says nothing of the state: none, a server error, a block. */
export const unanswered = (exchange: Exchange): boolean => {
  const s = statusOf(exchange);
  return s === undefined || s >= 500 || s === 429;
};

/** The citations of the rules, from the document. */
export function citations(spec: Spec): Record<'tokenUsable' | 'tokenShown' | 'tokenReplaced' | 'tokenRevoked' | 'sessionUsable' | 'sessionEnded' | 'payload' | 'snmpOnly' | 'snmpOnlyStatus', Citation> {
  const op = (id: string) => spec.operation(id);
  return {
    tokenUsable: citeOperation(op('createAuthToken'), 'Creates a new authentication token that is usable in later requests.'),
    tokenShown: citeOperation(op('createAuthToken'), 'The token is then readable as authenticationToken in the user record (4.2).'),
    tokenReplaced: resolveCitation(spec, 'components/securitySchemes/apiToken') ?? citeOperation(op('createAuthToken')),
    tokenRevoked: citeOperation(op('revokeAuthToken')),
    sessionUsable: citeOperation(op('createSession'), 'A session ID is stored in a cookie, which later requests send back (section 5).'),
    sessionEnded: citeOperation(op('deleteSession')),
    payload: citeOperation(op('updateEventLogPayload'), 'Updates the payload of one record; the field text is used.'),
    snmpOnly: citeOperation(op('updateEventLogPayload'), 'Updates the payload of one record. Available only for SNMP messages.'),
    snmpOnlyStatus: citeResponse(op('updateEventLogPayload'), 422),
  };
}
