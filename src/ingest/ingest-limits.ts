import type { Document } from '../spec/load.js';

/**
 * The bounds of the SNMP listener and the MQTT broker, as the control API document states them
 * (the one place they are written): getIngestCounts' `x-ingest-limits`.
 */
export interface IngestLimits {
  /** The most MQTT connections open at once; more are closed as they come. */
  readonly mqttConnections: number;
  /** An MQTT connection that sends nothing for this long is closed. */
  readonly mqttIdleSeconds: number;
  /** The largest MQTT packet taken, in bytes after its fixed header; a larger one closes its connection. */
  readonly mqttPacketBytes: number;
  /** The largest SNMP datagram taken, in bytes. */
  readonly snmpPacketBytes: number;
}

const KEYS = { mqttConnections: 'mqtt-connections', mqttIdleSeconds: 'mqtt-idle-seconds', mqttPacketBytes: 'mqtt-packet-bytes', snmpPacketBytes: 'snmp-packet-bytes' } as const;

/** The ingest limits in the control API document; throws, naming what is missing, when it lacks one. */
export function ingestLimits(document: Document): IngestLimits {
  const operation = Object.values(document.paths ?? {})
    .flatMap((item) => Object.values(item ?? {}))
    .find((op) => (op as { operationId?: unknown } | null)?.operationId === 'getIngestCounts') as Record<string, unknown> | undefined;
  const stated = (operation?.['x-ingest-limits'] ?? {}) as Record<string, unknown>;
  const entries = Object.entries(KEYS).map(([name, key]) => {
    const value = stated[key];
    if (!Number.isSafeInteger(value) || (value as number) < 1) throw new Error(`The control API document gives getIngestCounts no x-ingest-limits.${key} (an integer of 1 or more).`);
    return [name, value as number];
  });
  return Object.fromEntries(entries) as unknown as IngestLimits;
}
