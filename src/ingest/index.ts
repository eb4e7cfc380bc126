export { startSnmpTrapListener, type SnmpTrapListenerOptions } from './snmp-trap-listener.js';
export { startMqttBroker, type MqttBrokerOptions } from './mqtt-broker.js';
export { snmpTrapToRecord, SNMP_ENTITY_TYPE, type DecodedTrap } from './snmp-trap-to-record.js';
export { mqttMessageToRecord, renderMessage, MQTT_ENTITY_TYPE, type PublishedMessage } from './mqtt-message-to-record.js';
export { toSnmpVarbind, renderOctets, SNMP_TYPE_NAMES, type DecodedVarbind } from './snmp-varbind.js';
export { trapText, STANDARD_TRAPS } from './snmp-trap-text.js';
export { derivedObjectId } from './derived-id.js';
export { NotConvertibleError, type IngestOptions, type IngestHandle, type IngestStats, type IngestDrop, type DropReason } from './delivery.js';
