import { once, type EventEmitter } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import { createDelivery, NotConvertibleError, type IngestHandle, type IngestOptions } from './delivery.js';
import type { IngestLimits } from '../spec/limits.js';
import type { MqttMessagePayload, MqttMessageRecord } from '../spec/types.js';
import { derivedObjectId } from '../shared/derived-id.js';

export interface MqttBrokerOptions extends IngestOptions {
  /** Connections, idle time and packet size (the control API document's x-ingest-limits). */
  readonly limits: Pick<IngestLimits, 'mqttConnections' | 'mqttIdleSeconds' | 'mqttPacketBytes'>;
}

const SYS_PREFIX = '$SYS/';
/** MQTT control packet type of PUBLISH (the high 4 bits of the first byte). */
const PUBLISH = 3;

/** A message as a client published it to the broker. */
type PublishedMessage = Readonly<Pick<MqttMessagePayload, 'topic' | 'retain'> & { clientId: string; payload: Uint8Array | string; qos: number }>;

/** MQTT clients are sensors (the document's entityType gap-fill: 1 device, 2 sensor, 3 interface). */
const MQTT_ENTITY_TYPE = 2;

// ignoreBOM keeps a leading BOM in the text instead of silently dropping a byte.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The message as text when it is valid UTF-8, else base64 (the document's MqttMessagePayload gap-fill). */
export function renderMessage(payload: Uint8Array | string): string {
  if (typeof payload === 'string') return payload;
  try {
    return utf8.decode(payload);
  } catch {
    return Buffer.from(payload).toString('base64');
  }
}

/** A published message as an event log record; throws NotConvertibleError when it cannot be one. */
export function mqttMessageToRecord(message: PublishedMessage, stamp: { readonly id: string; readonly timestamp: number }): MqttMessageRecord {
  if (message.topic.length === 0) throw new NotConvertibleError('the message has an empty topic');
  if (message.qos !== 0 && message.qos !== 1 && message.qos !== 2) throw new NotConvertibleError(`QoS ${message.qos} is not 0, 1 or 2`);
  return {
    _id: stamp.id,
    type: 'mqtt-message',
    agentId: derivedObjectId('mqtt-agent', message.clientId),
    timestamp: stamp.timestamp,
    payload: { topic: message.topic, message: renderMessage(message.payload), qos: message.qos, retain: message.retain },
    entity: { entityId: derivedObjectId('mqtt-entity', message.clientId), entityType: MQTT_ENTITY_TYPE, entityName: message.clientId },
  };
}

/**
 * Reads the fixed header of each MQTT packet (type, then the remaining length as a variable byte
 * integer) and calls `tooLarge` once, with the type, as soon as one announces more than `maxBytes`,
 * before its body arrives: aedes (and mqtt-packet) has no size limit and would buffer up to 256 MB.
 */
function watchPacketSizes(socket: Socket, maxBytes: number, tooLarge: (type: number) => void): void {
  let body = 0; // bytes of the current packet's body not seen yet
  let type = -1; // the current packet's type, -1 before its first byte
  let length = 0;
  let shift = 0;
  const onData = (chunk: Buffer): void => {
    for (let i = 0; i < chunk.length; ) {
      if (body > 0) {
        const n = Math.min(body, chunk.length - i);
        body -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++] as number;
      if (type < 0) {
        [type, length, shift] = [byte >> 4, 0, 0];
        continue;
      }
      length += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (length > maxBytes) {
        socket.off('data', onData);
        return tooLarge(type);
      }
      if (byte & 0x80) continue; // more length bytes follow
      [body, type] = [length, -1];
    }
  };
  socket.on('data', onData);
}

/**
 * An embedded MQTT 3.1/3.1.1 broker (aedes): every message a client publishes, its Will too,
 * becomes an MqttMessageRecord; `$SYS/` messages and retained replays do not. A connection over
 * the cap, silent for the idle time, or announcing a packet over the size limit is closed (such a
 * PUBLISH counted as dropped, `too-large`).
 */
export async function startMqttBroker(options: MqttBrokerOptions): Promise<IngestHandle> {
  const { port, host = '127.0.0.1', clock, limits } = options;
  const delivery = createDelivery(options);
  // A client whose packet was over the size limit: the packet may have come whole in the chunk
  // its connection was closed on, so aedes still parses it; it is refused here, as is its Will.
  const oversized = new WeakSet<object>();
  const broker = await Aedes.createBroker({
    authorizePublish: (client, _packet, done) => done(client && oversized.has(client) ? new Error('a packet over the size limit') : null),
  });

  broker.on('publish', (packet, client) => {
    if (!client || packet.topic.startsWith(SYS_PREFIX)) return;
    const timestamp = clock.now();
    const message = { clientId: client.id, topic: packet.topic, payload: packet.payload, qos: packet.qos, retain: packet.retain };
    delivery.deliver(() => mqttMessageToRecord(message, { id: delivery.nextId(timestamp), timestamp }), client.id);
  });
  // Without a listener, an 'error' (e.g. from persistence) would throw out of the emitter.
  const emitter: EventEmitter = broker; // aedes' typings omit 'error'
  emitter.on('error', () => delivery.drop({ reason: 'transport-error', detail: 'broker error' }));

  // Connections that never send CONNECT are not aedes clients; they are tracked to be ended on close.
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setTimeout(limits.mqttIdleSeconds * 1000, () => socket.destroy());
    const client = broker.handle(socket);
    watchPacketSizes(socket, limits.mqttPacketBytes, (type) => {
      oversized.add(client);
      if (type === PUBLISH) delivery.drop({ reason: 'too-large', detail: `a message over ${limits.mqttPacketBytes} bytes`, from: client.id ?? socket.remoteAddress });
      socket.destroy();
    });
  });
  server.maxConnections = limits.mqttConnections;
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  server.on('error', () => delivery.drop({ reason: 'transport-error', detail: 'server error' }));
  const close = async (): Promise<void> => {
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await serverClosed;
  };
  let closing: Promise<void> | undefined;
  return { port: (server.address() as AddressInfo).port, stats: delivery.stats, close: () => (closing ??= close()) };
}
