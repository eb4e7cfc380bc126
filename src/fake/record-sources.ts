import type { IngestHandle } from '../ingest/delivery.js';
import { ingestLimits } from '../spec/limits.js';
import { startLiveFeed, type FeedTimers } from '../live/live-feed.js';
import type { FakeApp } from '../server/build.js';
import type { IngestSource } from '../server/build.js';
import { createSpecValidator } from '../spec/index.js';
import type { EventLogRecord } from '../spec/types.js';

/** Where a record that was not seeded came from. */
export type RecordSource = 'live' | 'snmp' | 'mqtt';

export interface RecordSourceOptions {
  /** New seeded event log records per second (default 0: none). */
  readonly liveRate?: number;
  /** Receive SNMP traps on this UDP port (0: a free one; default: no listener). */
  readonly snmpPort?: number;
  /** SNMP communities accepted (default `public`). */
  readonly snmpCommunity?: string | readonly string[];
  /** Run an MQTT broker on this TCP port (0: a free one; default: no broker). */
  readonly mqttPort?: number;
  /** Address the SNMP listener and MQTT broker bind (default 127.0.0.1). */
  readonly ingestHost?: string;
  /** Timers of the live feed (tests pass their own). */
  readonly timers?: FeedTimers;
  /** Told of each record the live feed, the SNMP listener or the MQTT broker stored; what it throws is logged and changes nothing. */
  readonly onRecord?: (record: EventLogRecord, source: RecordSource) => void;
}

/**
 * The event log, where live and received records go. `onRecord` is told after the record is stored;
 * its throw is its bug, not a refusal, so it is logged instead of reaching the ingester (which would count it dropped).
 */
function eventSink(app: FakeApp, source: RecordSource, onRecord: RecordSourceOptions['onRecord']): (record: EventLogRecord) => void {
  const { events } = app.fake.state.data;
  return (record) => {
    const stored = events.add(record);
    try {
      onRecord?.(stored, source);
    } catch (error) {
      app.log.error({ err: error, source, recordId: stored._id }, 'onRecord threw; the record is stored all the same');
    }
  };
}

/** Starts the live feed, the SNMP listener and the MQTT broker that the options ask for; none stays running when one fails to start. */
export async function startRecordSources(app: FakeApp, options: RecordSourceOptions) {
  const { clock, seed, spec, controlSpec } = app.fake.options;
  // What stops each started source: the live feed's timer, each ingester's reader and socket.
  const stops: (() => unknown)[] = [];
  const stop = async (): Promise<void> => {
    await Promise.allSettled(stops.map((s) => s()));
  };
  // The control API reads each started ingester's counts (`/__control/ingest`) through the app.
  const started = (source: IngestSource, handle: IngestHandle) => {
    const detach = app.fake.ingest.attach(source, () => ({ port: handle.port, ...handle.stats() }));
    stops.push(() => {
      detach();
      return handle.close();
    });
    return handle;
  };
  let snmp: IngestHandle | undefined;
  let mqtt: IngestHandle | undefined;
  try {
    if (options.liveRate) stops.push(startLiveFeed({ rate: options.liveRate, seed, clock, add: eventSink(app, 'live', options.onRecord), timers: options.timers }).stop);
    const host = options.ingestHost ?? '127.0.0.1';
    const validator = createSpecValidator(spec);
    const onDrop = (drop: { reason: string; detail?: string; from?: string }) => app.log.warn({ drop }, 'an incoming event was dropped');
    // The SNMP and MQTT libraries are loaded only when their ports are asked for.
    if (options.snmpPort !== undefined) {
      const { startSnmpTrapListener } = await import('../ingest/snmp-trap-listener.js');
      const community = options.snmpCommunity === undefined ? undefined : [options.snmpCommunity].flat();
      snmp = started('snmp', await startSnmpTrapListener({ port: options.snmpPort, host, community, clock, sink: eventSink(app, 'snmp', options.onRecord), validator, onDrop, limits: ingestLimits(controlSpec.document) }));
    }
    if (options.mqttPort !== undefined) {
      const { startMqttBroker } = await import('../ingest/mqtt-broker.js');
      mqtt = started('mqtt', await startMqttBroker({ port: options.mqttPort, host, clock, sink: eventSink(app, 'mqtt', options.onRecord), validator, onDrop, limits: ingestLimits(controlSpec.document) }));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { snmpPort: snmp?.port, mqttPort: mqtt?.port, stop };
}
