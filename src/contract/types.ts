// The data the contract runner passes around: exchanges in, failures out.
import type { Spec, SpecValidator } from '../spec/index.js';
import type { AuthModeOfScheme, createCredentialsSeen } from './client/credentials.js';

/** A request as it went on the wire (secrets included; mask before showing). */
export interface SentRequest {
  readonly method: string;
  /** The full URL, query string included. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A response as it came back: status, lower-case headers, the raw body and, when it parses, its JSON. */
export interface ReceivedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: string;
  /** The parsed body; absent when the body is empty, not JSON, or beyond the bounds the runner parses. */
  readonly json?: unknown;
  /** Only the head of the body is kept, without `json` (the run's memory budget was spent), and a digest when compared. */
  readonly partial?: true;
  readonly digest?: string;
  /** A JSON list not read whole or not parsed (past the runner's bounds): how many items it holds at least. */
  readonly itemsAtLeast?: number;
}

/** Who sent a request: the administrator, the optional low-privilege and operator users, or nobody. */
export type Actor = 'admin' | 'low' | 'operator' | 'anonymous';

/** How a request was authenticated, including the deliberately wrong variants (client/credentials.ts lists them by scheme). */
export type AuthMode = 'none' | AuthModeOfScheme;

/** One request and what came back (or why nothing came back). */
export interface Exchange {
  /** Stable name of the step that sent it, the same for the same seed; pairs exchanges in differential mode. */
  readonly key: string;
  readonly operationId: string;
  readonly actor: Actor;
  readonly auth: AuthMode;
  readonly request: SentRequest;
  readonly response?: ReceivedResponse;
  /** A transport problem (no response then), or, beside a response, why its body was not read whole or parsed (the runner's bounds). */
  readonly error?: string;
  /** The runner gave up at its own deadline (`--timeout`) of this many ms. */
  readonly timedOutAfterMs?: number;
}

export type Verdict = 'violation' | 'note';

/** Where an expectation comes from: a spec section, a gap-fill of the document, or a security rule (OWASP API Security Top 10). */
export interface Citation {
  readonly source: 'spec' | 'gap-fill' | 'security';
  /** `4.4` for a spec section; the document location for a gap-fill; the rule for security. */
  readonly ref: string;
  /** The gap-fill sentence, or what the spec section says. */
  readonly text: string;
}

export interface Failure {
  readonly check: string;
  readonly operationId: string;
  readonly title: string;
  readonly message: string;
  readonly severity: 'error' | 'warning';
  readonly verdict: Verdict;
  readonly expected: string;
  readonly citation: Citation;
}

/** A failure with the request that showed it, ready for a report (secrets masked). */
export interface ReportedFailure extends Failure {
  readonly key: string;
  /** The request as a curl command, secrets masked. */
  readonly curl: string;
  /** What came back: status and a trimmed body, or the transport error. */
  readonly actual: { readonly status?: number; readonly body?: string; readonly error?: string };
}

/** The credentials the run has seen so far. */
export type CredentialsSeen = ReturnType<typeof createCredentialsSeen>['seen'];

/** What a check may look at besides the exchange itself. */
export interface CheckContext {
  readonly spec: Spec;
  readonly validator: SpecValidator;
  readonly credentials: CredentialsSeen;
  /** The items of a list answer the schema checks validate (default 500). */
  readonly maxItems?: number;
}

/** A check could not judge an exchange (no answer, not the list it reads, a block…), and why. */
export interface Inconclusive {
  readonly inconclusive: string;
}

/** What a check says of one exchange: what it found wrong (nothing: it holds), or that it could not judge. */
export type Judgement = readonly Failure[] | Inconclusive;

/** A check: a named function over one exchange and the facts of the step that sent it (none for response checks). */
export interface Check<Name extends string = string, Facts = void> {
  readonly name: Name;
  readonly title: string;
  /** It judges an answer whose body was not read whole or parsed by what is known (the status, items counted); others call it inconclusive. */
  readonly judgesUnreadBody?: boolean;
  /** As a response check, it runs on these operations' exchanges alone. */
  readonly operations?: readonly string[];
  run(exchange: Exchange, context: CheckContext, facts: Facts): Judgement;
}

/** A check given the facts of one step: what a plan asks the runner to judge an exchange by. */
export type Applied = Omit<Check, 'run'> & { judge(exchange: Exchange, context: CheckContext): Judgement };
