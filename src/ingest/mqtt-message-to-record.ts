import type { MqttMessageRecord } from '../spec/types.js';
import { NotConvertibleError } from './delivery.js';
import { derivedObjectId } from '../shared/derived-id.js';

/** A message as a client published it to the broker. */
export interface PublishedMessage {
  readonly clientId: string;
  readonly topic: string;
  readonly payload: Uint8Array | string;
  readonly qos: number;
  readonly retain: boolean;
}

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
