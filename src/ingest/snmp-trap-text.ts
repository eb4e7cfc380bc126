import type { SnmpVarbind } from '../spec/types.js';

// Generic traps of RFC 1907 / RFC 3418 (SNMPv2-MIB snmpTraps).
const STANDARD_TRAPS: Readonly<Record<string, string>> = {
  '1.3.6.1.6.3.1.1.5.1': 'coldStart',
  '1.3.6.1.6.3.1.1.5.2': 'warmStart',
  '1.3.6.1.6.3.1.1.5.3': 'linkDown',
  '1.3.6.1.6.3.1.1.5.4': 'linkUp',
  '1.3.6.1.6.3.1.1.5.5': 'authenticationFailure',
  '1.3.6.1.6.3.1.1.5.6': 'egpNeighborLoss',
};

// Objects that linkDown/linkUp and most device traps carry, named so the line reads well.
const OBJECT_NAMES: readonly (readonly [string, string])[] = [
  ['1.3.6.1.2.1.2.2.1.1', 'ifIndex'],
  ['1.3.6.1.2.1.2.2.1.2', 'ifDescr'],
  ['1.3.6.1.2.1.2.2.1.7', 'ifAdminStatus'],
  ['1.3.6.1.2.1.2.2.1.8', 'ifOperStatus'],
  ['1.3.6.1.2.1.31.1.1.1.1', 'ifName'],
  ['1.3.6.1.2.1.31.1.1.1.18', 'ifAlias'],
  ['1.3.6.1.2.1.1.5', 'sysName'],
  ['1.3.6.1.2.1.1.6', 'sysLocation'],
];

/** Bindings that frame the notification rather than describe the event. */
const FRAMING_OIDS: ReadonlySet<string> = new Set([
  '1.3.6.1.2.1.1.3.0', // sysUpTime.0
  '1.3.6.1.6.3.1.1.4.1.0', // snmpTrapOID.0
  '1.3.6.1.6.3.1.1.4.3.0', // snmpTrapEnterprise.0
  '1.3.6.1.6.3.18.1.3.0', // snmpTrapAddress.0
  '1.3.6.1.6.3.18.1.4.0', // snmpTrapCommunity.0
]);

const MAX_SHOWN = 6;
const MAX_VALUE_CHARS = 64;

function objectName(oid: string): string {
  for (const [prefix, name] of OBJECT_NAMES) {
    if (oid === prefix) return name;
    if (oid.startsWith(`${prefix}.`)) return `${name}.${oid.slice(prefix.length + 1)}`;
  }
  return oid;
}

function shown(value: SnmpVarbind['value']): string {
  const text = value === null ? 'null' : String(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** A one-line summary: `linkDown from 192.0.2.17: ifIndex=3, ifDescr=ge-0/0/3`. */
export function trapText(trapOid: string, sender: string, bindings: readonly SnmpVarbind[]): string {
  const head = `${STANDARD_TRAPS[trapOid] ?? trapOid} from ${sender}`;
  const interesting = bindings.filter((b) => !FRAMING_OIDS.has(b.oid));
  if (interesting.length === 0) return head;
  const parts = interesting.slice(0, MAX_SHOWN).map((b) => `${objectName(b.oid)}=${shown(b.value)}`);
  const more = interesting.length > MAX_SHOWN ? ` (+${interesting.length - MAX_SHOWN} more)` : '';
  return `${head}: ${parts.join(', ')}${more}`;
}
