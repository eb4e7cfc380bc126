// What the request journal holds and offers (request-journal.ts holds how it keeps records).

/**
 * One answered request as the journal keeps it: references to what the request and its answer
 * already hold. Secrets are masked when the entry is read, never here (most entries are never
 * read).
 */
export interface JournalRecord {
  /** Increases by one for each request kept, from 1; never reused, also across clears. */
  readonly id: number;
  /** When the answer was sent, ms on the fake's clock. */
  readonly time: number;
  readonly method: string;
  /** The URL as the request sent it (unmasked: mask when reading). */
  readonly rawUrl: string;
  readonly operationId: string | undefined;
  readonly authMethod: string | undefined;
  readonly userId: string | undefined;
  readonly login: string | undefined;
  readonly origin: string | undefined;
  readonly status: number;
  readonly durationMs: number;
  /**
   * The answer's body as it was sent (no copy), or a copy of its head when it is longer than
   * `perBody`; undefined for an answer without one, and once the journal drops it for space.
   */
  readonly body: string | Buffer | undefined;
  /** `head`: only the head of the body was kept; `dropped`: the journal dropped the body for space. */
  readonly bodyCut: 'head' | 'dropped' | undefined;
}

/**
 * How much text the journal keeps, in characters (a Buffer's bytes): the head of each answer's
 * body up to `perBody`, and at most `total` of URLs, origins and bodies across the journal, the
 * oldest bodies dropped first, then the oldest records. The server passes them in from the
 * control API document.
 */
export interface JournalBodyLimits {
  readonly perBody: number;
  readonly total: number;
}

/** Which records to read; each filter left out matches every record. */
export interface JournalFilter {
  readonly operationId?: string;
  /** An exact status (`404`) or a class (`4xx`). */
  readonly status?: string;
  /** Only records of this time or later (ms). */
  readonly since?: number;
  /** At most this many, the newest. */
  readonly limit?: number;
}

/** The last `capacity` answered requests, in a ring: adding to a full journal drops the oldest. */
export interface RequestJournal {
  readonly capacity: number;
  /** How much text it keeps: the keeper cuts each body to `perBody`, the journal holds `total` in all. */
  readonly bodyLimits: JournalBodyLimits;
  /** The id the next record gets. */
  nextId(): number;
  add(record: JournalRecord): void;
  /** Matching records, newest first. */
  list(filter?: JournalFilter): JournalRecord[];
  /** Empties the journal; returns how many records it held. */
  clear(): number;
  readonly size: number;
}
