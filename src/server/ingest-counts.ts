import type { IngestCounts, IngestSourceRunning } from '../spec/control-types.js';

/** A source of received records: a key of the control API's `IngestCounts` (`snmp`, `mqtt`). */
export type IngestSource = keyof IngestCounts;

/** What a running source reports when read: its port and its counts. */
export type IngestReading = Omit<IngestSourceRunning, 'running'>;

/**
 * Where the control API reads the counts of the SNMP listener and the MQTT broker. Those run
 * beside the app, started by code the server must not import (createFake's record sources), so
 * whatever starts one tells this board how to read it; a source never attached, or detached once
 * it stops, answers as not running.
 */
export interface IngestCountsBoard {
  /** Reads `source` with `read` from now on, until the returned function is called. */
  attach(source: IngestSource, read: () => IngestReading): () => void;
  /** Every source, read now. */
  read(): IngestCounts;
}

export function createIngestCountsBoard(): IngestCountsBoard {
  const readers = new Map<IngestSource, () => IngestReading>();
  const one = (source: IngestSource): IngestCounts[IngestSource] => {
    const read = readers.get(source);
    return read ? { running: true, ...read() } : { running: false };
  };
  return {
    attach(source, read) {
      readers.set(source, read);
      return () => {
        if (readers.get(source) === read) readers.delete(source);
      };
    },
    read: () => ({ snmp: one('snmp'), mqtt: one('mqtt') }),
  };
}
