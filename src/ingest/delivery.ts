import type { Clock } from '../shared/clock.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import type { DropReason, IngestSourceRunning } from '../spec/control-types.js';
import type { EventLogRecord } from '../spec/types.js';
import type { SpecValidator } from '../spec/validator.js';

/** Why an incoming trap or message gave no record: the control API document's `DropReason`; never carries packet content or secrets. */
export interface IngestDrop {
  readonly reason: DropReason;
  readonly detail?: string;
  /** The sender (address or client id), when known. */
  readonly from?: string;
}

/** What became of the traps or messages received, as the control API shows it: each counted once, delivered or dropped. */
type IngestStats = Omit<IngestSourceRunning, 'running' | 'port'>;

/** What every ingester takes: where it listens, where records go, what stamps them, and optional checks. */
export interface IngestOptions {
  /** The port; 0 picks a free one (see `port` on the handle). */
  readonly port: number;
  /** Address to listen on; default loopback only (an IPv6 address: udp6 for SNMP). */
  readonly host?: string;
  /** Takes each record; one that throws drops that record (counted), nothing else. */
  readonly sink: (record: EventLogRecord) => void;
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
  /** The bound port (the one chosen when 0 was asked for). */
  readonly port: number;
  readonly stats: () => IngestStats;
  /** Stops listening and releases every handle; safe to call twice. */
  readonly close: () => Promise<void>;
}

/** A record that cannot be built from what arrived. */
export class NotConvertibleError extends Error {
  override readonly name = 'NotConvertibleError';
}

/** The counting between an ingester and its sink: `deliver` builds (may throw NotConvertibleError), checks and hands on a record, and never throws. */
export function createDelivery(options: IngestOptions) {
  const nextId = options.ids ?? createObjectIdGenerator();
  let delivered = 0;
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
  const deliver = (build: () => EventLogRecord, from?: string): void => {
    let record: EventLogRecord;
    try {
      record = build();
    } catch (error) {
      return drop({ reason: 'not-convertible', detail: error instanceof NotConvertibleError ? error.message : 'conversion failed', from });
    }
    const problems = options.validator?.validateNamed('EventLogRecord', record) ?? [];
    if (problems.length > 0) return drop({ reason: 'invalid-record', detail: problems.map((p) => p.message).join('; '), from });
    try {
      options.sink(record);
      delivered++;
    } catch {
      drop({ reason: 'sink-failed', from });
    }
  };
  return { nextId, drop, deliver, stats: (): IngestStats => ({ delivered, pending: 0, dropped, droppedByReason: { ...byReason } }) };
}
