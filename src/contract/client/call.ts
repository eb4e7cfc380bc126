// One request of the document as the runner asks for it: the operation, who sends it, how it
// authenticates and what it carries. The client (api-client.ts) turns it into HTTP.
import type { Actor, AuthMode } from '../types.js';

/** A user's login and password, as Basic sends them and the log-in body carries them. */
export interface Credentials {
  readonly login: string;
  readonly password: string;
}

export interface Call {
  readonly operationId: string;
  /** Stable name of the step, the same for the same seed. */
  readonly key: string;
  readonly actor?: Actor;
  /**
   * How to authenticate. Left out: the administrator's run session when one is open and the
   * operation accepts a session cookie, else Basic (see openRunSession).
   */
  readonly auth?: AuthMode;
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Cookies sent as given, besides the actor's jar (e.g. a session id kept from before a log-out). */
  readonly cookies?: Readonly<Record<string, string>>;
  /** A JSON body; `rawBody` sends text as it is. */
  readonly body?: unknown;
  readonly rawBody?: string;
  /** Content-Type of a body; null sends none. Default application/json. */
  readonly contentType?: string | null;
}
