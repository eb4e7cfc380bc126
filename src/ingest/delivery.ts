import type { Clock } from '../shared/clock.js';
import type { DropReason } from '../spec/control-types.js';
import type { SpecValidator } from '../spec/validator.js';
import type { EventLogRecord } from '../spec/types.js';
import { createObjectIdGenerator } from '../shared/object-id.js';

/**
 * Why an incoming trap or message produced no record: the control API document's `DropReason`,
 * which says what each means (its `getIngestCounts` reports them). Never carries secrets.
 */
export type { DropReason };

export interface IngestDrop {
  readonly reason: DropReason;
  /** A short explanation written by this module (no packet content). */
  readonly detail?: string;
  /** The sender (address or client id), when known. */
  readonly from?: string;
}

/**
 * What became of the traps or messages received, true at every moment: each is counted once, in
 * one of `delivered`, `pending` or `dropped`, and moves from `pending` to one of the others.
 */
export interface IngestStats {
  /** Records the sink took: for the fake, stored in the event log (a later reset may take them away again). */
  readonly delivered: number;
  /** Records handed to the sink that it has neither taken nor refused yet (the fake's event log waits for its records to be made). */
  readonly pending: number;
  /** Traps or messages that gave no record, or whose record the sink refused. */
  readonly dropped: number;
  readonly droppedByReason: Readonly<Partial<Record<DropReason, number>>>;
}

/** What every ingester takes: where records go, what stamps them, and optional checks. */
export interface IngestOptions {
  /**
   * Receives each record; a sink that throws (or whose promise rejects) drops that record (counted),
   * nothing else. A record is delivered when the sink returns, or when its promise resolves
   * (pending until then).
   */
  readonly sink: (record: EventLogRecord) => void | Promise<void>;
  readonly clock: Clock;
  /** Makes `_id`s from a timestamp; default: a fresh ObjectId generator. */
  readonly ids?: (timestampMs: number) => string;
  /** When given, each record is checked against `EventLogRecord` before it reaches the sink. */
  readonly validator?: Pick<SpecValidator, 'validateNamed'>;
  /** Told about each drop, e.g. to log it. */
  readonly onDrop?: (drop: IngestDrop) => void;
}

/** A started ingester. */
export interface IngestHandle {
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  readonly stats: () => IngestStats;
  /** Stops listening and releases every handle; safe to call twice. */
  readonly close: () => Promise<void>;
}

export interface Delivery {
  readonly nextId: (timestampMs: number) => string;
  /** Builds (may throw: not-convertible), checks and hands a record to the sink; never throws. */
  deliver(build: () => EventLogRecord, from?: string): void;
  drop(drop: IngestDrop): void;
  stats(): IngestStats;
}

/** A record that cannot be built from what arrived. */
export class NotConvertibleError extends Error {
  override readonly name = 'NotConvertibleError';
}

export function createDelivery(options: IngestOptions): Delivery {
  const nextId = options.ids ?? createObjectIdGenerator();
  let delivered = 0;
  let pending = 0;
  let dropped = 0;
  const byReason: Partial<Record<DropReason, number>> = {};

  const drop = (d: IngestDrop): void => {
    dropped++;
    byReason[d.reason] = (byReason[d.reason] ?? 0) + 1;
    try {
      options.onDrop?.(d);
    } catch {
      // A failing observer must not stop ingestion.
    }
  };

  return {
    nextId,
    drop,
    deliver(build, from) {
      let record: EventLogRecord;
      try {
        record = build();
      } catch (error) {
        const detail = error instanceof NotConvertibleError ? error.message : 'conversion failed';
        return drop({ reason: 'not-convertible', detail, from });
      }
      const problems = options.validator?.validateNamed('EventLogRecord', record) ?? [];
      if (problems.length > 0) {
        return drop({ reason: 'invalid-record', detail: problems.map((p) => p.message).join('; '), from });
      }
      let taken: void | Promise<void>;
      try {
        taken = options.sink(record);
      } catch {
        return drop({ reason: 'sink-failed', from });
      }
      if (taken instanceof Promise) {
        pending++;
        taken.then(
          () => {
            pending--;
            delivered++;
          },
          () => {
            pending--;
            drop({ reason: 'sink-failed', from });
          },
        );
      } else delivered++;
    },
    stats: () => ({ delivered, pending, dropped, droppedByReason: { ...byReason } }),
  };
}
