import type { Faker } from '@faker-js/faker';
import type { Entity, SnmpVarbind } from '../spec/types.js';
import type { Device, Vendor } from './inventory.js';

/** The standard traps (SNMPv2-MIB snmpTraps) and the vendor ones the seed uses. */
export const TRAP_OIDS = {
  coldStart: '1.3.6.1.6.3.1.1.5.1',
  warmStart: '1.3.6.1.6.3.1.1.5.2',
  linkDown: '1.3.6.1.6.3.1.1.5.3',
  linkUp: '1.3.6.1.6.3.1.1.5.4',
  authenticationFailure: '1.3.6.1.6.3.1.1.5.5',
  bgpBackwardTransition: '1.3.6.1.2.1.15.7.2',
  ciscoConfigManEvent: '1.3.6.1.4.1.9.9.43.2.0.1',
  ciscoEnvMonTemperatureNotification: '1.3.6.1.4.1.9.9.13.3.0.3',
  cpmCPURisingThreshold: '1.3.6.1.4.1.9.9.109.2.0.1',
  jnxPowerSupplyFailure: '1.3.6.1.4.1.2636.4.1.1',
  jnxFanFailure: '1.3.6.1.4.1.2636.4.1.2',
  jnxOverTemperature: '1.3.6.1.4.1.2636.4.1.3',
  jnxCmCfgChange: '1.3.6.1.4.1.2636.4.5.0.1',
} as const;

interface TrapContext {
  readonly faker: Faker;
  readonly device: Device;
  /** sysUpTime of the device at the trap, in TimeTicks (1/100 s). */
  readonly upTime: number;
  /** Logins of people who change configurations, and addresses that send SNMP requests with a wrong community. */
  readonly operators: readonly string[];
  readonly strangers: readonly string[];
}

/** What a trap says: its line, the bindings after sysUpTime.0 and snmpTrapOID.0, and its entity (default: the device's). */
interface TrapDraft {
  readonly text: string;
  readonly bindings: readonly SnmpVarbind[];
  readonly entity?: Entity;
}

const int = (oid: string, value: number): SnmpVarbind => ({ oid, type: 'Integer', value });
const str = (oid: string, value: string): SnmpVarbind => ({ oid, type: 'OctetString', value });
const gauge = (oid: string, value: number): SnmpVarbind => ({ oid, type: 'Gauge32', value });
const ip = (oid: string, value: string): SnmpVarbind => ({ oid, type: 'IpAddress', value });

const link = (up: boolean) => ({ faker, device }: TrapContext): TrapDraft => {
  const port = faker.helpers.arrayElement(device.interfaces);
  const v = port.varbinds;
  const adminDown = !up && faker.number.int(9) === 0;
  const bindings = [v.ifIndex, v.ifDescr, adminDown ? v.adminDown : v.adminUp, up ? v.operUp : v.operDown];
  if (device.vendor === 'cisco') bindings.push(up ? v.reasonUp : adminDown ? v.reasonAdminDown : v.reasonDown);
  const state = up ? 'came up' : adminDown ? 'was shut down by an administrator' : 'went down';
  return { text: `${up ? 'linkUp' : 'linkDown'}: interface ${port.ifDescr} on ${device.name} ${state}`, bindings, entity: port.entity };
};

const restart = (cold: boolean) => ({ device }: TrapContext): TrapDraft => ({
  text: cold ? `coldStart: ${device.name} restarted after a power cycle` : `warmStart: ${device.name} reinitialized its SNMP agent`,
  bindings: [],
});

function authenticationFailure({ faker, device, strangers }: TrapContext): TrapDraft {
  const from = faker.helpers.arrayElement(strangers);
  // authAddr of OLD-CISCO-SYSTEM-MIB names the offending manager.
  return { text: `authenticationFailure: ${device.name} refused an SNMP request from ${from} with a wrong community`, bindings: device.vendor === 'cisco' ? [ip('1.3.6.1.4.1.9.2.1.5.0', from)] : [] };
}

function ciscoConfigChange({ faker, device, operators }: TrapContext): TrapDraft {
  const who = faker.helpers.arrayElement(operators);
  const n = faker.number.int({ min: 1, max: 5000 });
  const entry = '1.3.6.1.4.1.9.9.43.1.1.6.1'; // ccmHistoryEventEntry
  return { text: `Configuration of ${device.name} changed from the command line by ${who}`, bindings: [int(`${entry}.3.${n}`, 1), int(`${entry}.4.${n}`, 3), int(`${entry}.5.${n}`, 3)] };
}

function ciscoCpu({ faker, device }: TrapContext): TrapDraft {
  const load = faker.number.int({ min: 81, max: 99 });
  return {
    text: `CPU of ${device.name} at ${load}% over the last 5 minutes (rising threshold 80%)`,
    bindings: [gauge('1.3.6.1.4.1.9.9.109.1.2.1.1.2.1.1', 80), gauge('1.3.6.1.4.1.9.9.109.1.1.1.1.10.1', load)],
  };
}

function ciscoTemperature({ faker, device }: TrapContext): TrapDraft {
  const celsius = faker.number.int({ min: 56, max: 78 });
  const critical = celsius >= 70;
  const table = '1.3.6.1.4.1.9.9.13.1.3.1'; // ciscoEnvMonTemperatureStatusEntry
  return {
    text: `Inlet temperature of ${device.name} is ${celsius} °C (${critical ? 'critical' : 'warning'})`,
    bindings: [str(`${table}.2.1`, 'Inlet Temp Sensor'), gauge(`${table}.3.1`, celsius), int(`${table}.6.1`, critical ? 3 : 2)],
  };
}

const CHASSIS = { jnxOverTemperature: ['FPC ', 0, 7], jnxFanFailure: ['Fan Tray 0 Fan ', 1, 4], jnxPowerSupplyFailure: ['PEM ', 0, 2] } as const;

const juniperChassis = (name: keyof typeof CHASSIS) => ({ faker, device }: TrapContext): TrapDraft => {
  const unit = faker.number.int(1);
  const [label, offset, container] = CHASSIS[name];
  const part = `${label}${unit + offset}`;
  const row = `${container}.${unit + 1}`;
  const bindings = [int(`1.3.6.1.4.1.2636.3.1.8.1.1.${row}`, container), str(`1.3.6.1.4.1.2636.3.1.8.1.6.${row}`, part)];
  if (name !== 'jnxOverTemperature') return { text: `${part} of ${device.name} failed`, bindings };
  const celsius = faker.number.int({ min: 62, max: 85 });
  return { text: `${part} of ${device.name} is over temperature: ${celsius} °C`, bindings: [...bindings, gauge(`1.3.6.1.4.1.2636.3.1.13.1.7.${row}`, celsius)] };
};

function juniperConfigChange({ faker, device, operators, upTime }: TrapContext): TrapDraft {
  const who = faker.helpers.arrayElement(operators);
  const n = faker.number.int({ min: 1, max: 32 });
  const entry = '1.3.6.1.4.1.2636.3.18.1.7.1'; // jnxCmCfgChgEventEntry
  return {
    text: `Configuration of ${device.name} committed by ${who}`,
    bindings: [{ oid: `${entry}.2.${n}`, type: 'TimeTicks', value: upTime }, int(`${entry}.4.${n}`, 2), str(`${entry}.5.${n}`, who), str(`${entry}.6.${n}`, 'commit')],
  };
}

function bgpBackward({ faker, device }: TrapContext): TrapDraft {
  const peer = faker.helpers.arrayElement(device.bgpPeers);
  const entry = '1.3.6.1.2.1.15.3.1'; // bgpPeerEntry
  return {
    text: `BGP session of ${device.name} with ${peer} left Established (hold timer expired)`,
    bindings: [ip(`${entry}.7.${peer}`, peer), str(`${entry}.14.${peer}`, '0400'), int(`${entry}.2.${peer}`, 1)],
  };
}

/** The kinds of trap: the vendors that send each, weighted, and what it says. */
const TRAP_KINDS: readonly { readonly name: keyof typeof TRAP_OIDS; readonly weight: Readonly<Partial<Record<Vendor, number>>>; build(ctx: TrapContext): TrapDraft }[] = [
  { name: 'linkDown', weight: { cisco: 30, juniper: 28, 'net-snmp': 25 }, build: link(false) },
  { name: 'linkUp', weight: { cisco: 30, juniper: 28, 'net-snmp': 25 }, build: link(true) },
  { name: 'authenticationFailure', weight: { cisco: 10, juniper: 8, 'net-snmp': 30 }, build: authenticationFailure },
  { name: 'coldStart', weight: { cisco: 1, juniper: 1, 'net-snmp': 5 }, build: restart(true) },
  { name: 'warmStart', weight: { cisco: 2, juniper: 2, 'net-snmp': 5 }, build: restart(false) },
  { name: 'ciscoConfigManEvent', weight: { cisco: 8 }, build: ciscoConfigChange },
  { name: 'cpmCPURisingThreshold', weight: { cisco: 6 }, build: ciscoCpu },
  { name: 'ciscoEnvMonTemperatureNotification', weight: { cisco: 3 }, build: ciscoTemperature },
  { name: 'jnxCmCfgChange', weight: { juniper: 8 }, build: juniperConfigChange },
  { name: 'bgpBackwardTransition', weight: { juniper: 6 }, build: bgpBackward },
  { name: 'jnxOverTemperature', weight: { juniper: 3 }, build: juniperChassis('jnxOverTemperature') },
  { name: 'jnxFanFailure', weight: { juniper: 2 }, build: juniperChassis('jnxFanFailure') },
  { name: 'jnxPowerSupplyFailure', weight: { juniper: 1 }, build: juniperChassis('jnxPowerSupplyFailure') },
];

/** The trap kinds a device sends, weighted, for faker.helpers.weightedArrayElement. */
export function trapKindsFor(device: Device): { weight: number; value: (typeof TRAP_KINDS)[number] }[] {
  return TRAP_KINDS.flatMap((kind) => {
    const weight = kind.weight[device.vendor] ?? 0;
    return weight === 0 || (kind.name === 'bgpBackwardTransition' && device.bgpPeers.length === 0) ? [] : [{ weight, value: kind }];
  });
}
