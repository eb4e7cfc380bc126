import type { Entity, SnmpVarbind } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { createObjectIdGenerator } from '../shared/object-id.js';

// The fixed network the seed data describes: SNMP devices with their interfaces, and MQTT sensors,
// the same whatever the seed, so fixtures can name them. entityType: 1 device, 2 sensor, 3 interface (the document's gap-fill).

export type Vendor = 'cisco' | 'juniper' | 'net-snmp';

type SensorKind = 'temperature' | 'humidity' | 'power' | 'door' | 'ups';
export type Device = Readonly<ReturnType<typeof buildInventory>['devices'][number]>;
export type Sensor = Readonly<ReturnType<typeof buildInventory>['sensors'][number]>;

/** When the inventory ids were "created" (their ObjectId time part). */
const INVENTORY_TIME = Date.UTC(2024, 0, 15);
const AGENT_MACHINE = Uint8Array.from([0x61, 0x67, 0x65, 0x6e, 0x74]);
const ENTITY_MACHINE = Uint8Array.from([0x65, 0x6e, 0x74, 0x74, 0x79]);

const IF_MIB = '1.3.6.1.2.1.2.2.1';

type DeviceSpec = { name: string; vendor: Vendor; ip: string; ports: (i: number) => [ifIndex: number, ifDescr: string]; portCount: number; bgpPeers?: string[] };

const catalystPort = (i: number): [number, string] => [i + 1, `GigabitEthernet1/0/${i + 1}`];
const nexusPort = (i: number): [number, string] => [i + 1, `TenGigabitEthernet1/0/${i + 1}`];
const junosPort = (i: number): [number, string] => [513 + i, `ge-0/0/${i}`];
const linuxPort = (i: number): [number, string] => [i + 2, `eth${i}`];

const DEVICE_SPECS: DeviceSpec[] = [
  { name: 'core-sw-01', vendor: 'cisco', ip: '10.0.0.1', ports: nexusPort, portCount: 12 },
  { name: 'core-sw-02', vendor: 'cisco', ip: '10.0.0.2', ports: nexusPort, portCount: 12 },
  ...[1, 2, 3, 4].map((n) => ({ name: `dist-sw-0${n}`, vendor: 'cisco' as const, ip: `10.0.1.${n}`, ports: catalystPort, portCount: 8 })),
  ...[1, 2, 3, 4, 5, 6].map((n) => ({ name: `access-sw-0${n}`, vendor: 'cisco' as const, ip: `10.0.2.${n}`, ports: catalystPort, portCount: 8 })),
  { name: 'wlc-01', vendor: 'cisco', ip: '10.0.3.10', ports: catalystPort, portCount: 4 },
  { name: 'edge-rtr-01', vendor: 'juniper', ip: '10.0.255.1', ports: junosPort, portCount: 6, bgpPeers: ['192.0.2.1', '198.51.100.1'] },
  { name: 'edge-rtr-02', vendor: 'juniper', ip: '10.0.255.2', ports: junosPort, portCount: 6, bgpPeers: ['192.0.2.5', '198.51.100.5'] },
  { name: 'fw-01', vendor: 'juniper', ip: '10.0.254.1', ports: junosPort, portCount: 6 },
  { name: 'nms-01', vendor: 'net-snmp', ip: '10.0.5.20', ports: linuxPort, portCount: 2 },
  { name: 'backup-srv-01', vendor: 'net-snmp', ip: '10.0.5.30', ports: linuxPort, portCount: 2 },
];

const SENSOR_RACKS = ['rack-01', 'rack-02', 'rack-03', 'rack-04', 'rack-05', 'rack-06'];

function buildInventory() {
  const agentIds = createObjectIdGenerator(AGENT_MACHINE, 1);
  const entityIds = createObjectIdGenerator(ENTITY_MACHINE, 1);
  const nextAgent = () => agentIds(INVENTORY_TIME);
  const entity = (entityType: number, entityName: string): Entity => ({
    entityId: entityIds(INVENTORY_TIME),
    entityType,
    entityName,
  });
  const devices = DEVICE_SPECS.map((spec) => ({
    name: spec.name,
    vendor: spec.vendor,
    ip: spec.ip,
    agentId: nextAgent(),
    entity: entity(1, spec.name),
    /** A router's BGP peers. */
    bgpPeers: spec.bgpPeers ?? [],
    interfaces: Array.from({ length: spec.portCount }, (_, i) => {
      const [ifIndex, ifDescr] = spec.ports(i);
      const status = (column: number, value: number): SnmpVarbind => ({ oid: `${IF_MIB}.${column}.${ifIndex}`, type: 'Integer', value });
      const reason = (value: string): SnmpVarbind => ({ oid: `1.3.6.1.4.1.9.2.2.1.1.20.${ifIndex}`, type: 'OctetString', value });
      return {
        ifIndex,
        ifDescr,
        entity: entity(3, `${spec.name} ${ifDescr}`),
        // Shared, frozen varbinds of this interface: ifIndex, ifDescr, admin/oper status up and down, and locIfReason (OLD-CISCO-INTERFACES-MIB), which IOS sends with link traps.
        varbinds: {
          ifIndex: { oid: `${IF_MIB}.1.${ifIndex}`, type: 'Integer', value: ifIndex } as SnmpVarbind,
          ifDescr: { oid: `${IF_MIB}.2.${ifIndex}`, type: 'OctetString', value: ifDescr } as SnmpVarbind,
          adminUp: status(7, 1),
          adminDown: status(7, 2),
          operUp: status(8, 1),
          operDown: status(8, 2),
          reasonUp: reason('up'),
          reasonDown: reason('down'),
          reasonAdminDown: reason('administratively down'),
        },
      };
    }),
  }));
  const sensor = (name: string, kind: SensorKind, topic: string) => ({ name, kind, topic, agentId: nextAgent(), entity: entity(2, name) });
  const sensors = [
    ...SENSOR_RACKS.flatMap((rack) => [
      sensor(`${rack}-temp`, 'temperature', `dc1/room-a/${rack}/temperature`),
      sensor(`${rack}-humidity`, 'humidity', `dc1/room-a/${rack}/humidity`),
      sensor(`${rack}-pdu`, 'power', `dc1/room-a/${rack}/power`),
    ]),
    sensor('room-a-door', 'door', 'dc1/room-a/door'),
    sensor('room-b-door', 'door', 'dc1/room-b/door'),
    sensor('ups-01', 'ups', 'dc1/power/ups-01/status'),
  ];
  return deepFreeze({ devices, sensors });
}

export const inventory = buildInventory();
