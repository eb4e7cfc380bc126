/** A request as the handlers pass it on to the fake: the path under the fake's root, headers as they will be sent. */
export interface FakeRequest {
  readonly method: string;
  /** Path and query, e.g. `/node/api/event-log?limit=5`. */
  readonly path: string;
  readonly headers: Headers;
  /** The whole body, read before it is passed on; undefined for a GET or HEAD, or a request without one. */
  readonly body: ArrayBuffer | undefined;
  readonly credentials: RequestCredentials;
  /** Aborted when the app aborts its fetch: a hanging answer then ends. */
  readonly signal: AbortSignal;
}

/** How the fake answers: a Response, or `Response.error()` where the fake dropped the connection (fetch then rejects, as over HTTP). */
export type Answer = (request: FakeRequest) => Promise<Response>;
