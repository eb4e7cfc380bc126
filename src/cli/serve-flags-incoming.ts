import { MAX_LIVE_RATE } from '../live/live-feed.js';
import { formatCount, SERVE_ENV, type Flag } from './flag.js';
import { integer, list, port } from './flag-values.js';

/** Records that come while the fake runs: the live feed, SNMP traps, MQTT messages. */
export const incomingFlags = [
  {
    name: 'liveRate',
    flags: '--live-rate <n>',
    description: `new seeded records per second (up to ${formatCount(MAX_LIVE_RATE)}), timestamped now`,
    env: `${SERVE_ENV}LIVE_RATE`,
    parse: integer(0, MAX_LIVE_RATE),
    defaultValue: 0,
  },
  {
    name: 'snmpPort',
    flags: '--snmp-port <port>',
    description: 'receive SNMP v1/v2c traps on this UDP port into the event log',
    env: `${SERVE_ENV}SNMP_PORT`,
    parse: port,
    defaultDescription: 'off',
  },
  {
    name: 'snmpCommunity',
    flags: '--snmp-community <name>',
    description: 'communities accepted; repeatable or comma-separated',
    env: `${SERVE_ENV}SNMP_COMMUNITY`,
    parse: list,
    defaultValue: ['public'],
    defaultDescription: 'public',
  },
  {
    name: 'mqttPort',
    flags: '--mqtt-port <port>',
    description: 'an MQTT broker on this TCP port; published messages go into the event log',
    env: `${SERVE_ENV}MQTT_PORT`,
    parse: port,
    defaultDescription: 'off',
  },
] as const satisfies readonly Flag[];
