import { isIP, isIPv4 } from 'node:net';
import type { Notification, RawVarbind } from 'net-snmp';
import type { SnmpTrapRecord, SnmpVarbind } from '../spec/types.js';
import { NotConvertibleError } from './delivery.js';
import { derivedObjectId } from '../shared/derived-id.js';

type TypeName = SnmpVarbind['type'];

// ASN.1 / SMI tags (RFC 3416) to the document's type names. Boolean (1) and BitString (3)
// are not SMI types and have no name in the document: a trap carrying them is not converted.
export const SNMP_TYPE_NAMES: ReadonlyMap<number, TypeName> = new Map(
  Object.entries({ 2: 'Integer', 4: 'OctetString', 5: 'Null', 6: 'ObjectIdentifier', 64: 'IpAddress', 65: 'Counter32', 66: 'Gauge32', 67: 'TimeTicks', 68: 'Opaque', 70: 'Counter64', 128: 'NoSuchObject', 129: 'NoSuchInstance', 130: 'EndOfMibView' } as const).map(([tag, name]) => [Number(tag), name]),
);
const INTEGER_RANGES: Partial<Record<TypeName, readonly [number, number]>> = { Integer: [-(2 ** 31), 2 ** 31 - 1], Counter32: [0, 2 ** 32 - 1], Gauge32: [0, 2 ** 32 - 1], TimeTicks: [0, 2 ** 32 - 1] };

const SYS_UP_TIME = '1.3.6.1.2.1.1.3.0';
const SNMP_TRAP_OID = '1.3.6.1.6.3.1.1.4.1.0';
const SNMP_TRAP_ENTERPRISE = '1.3.6.1.6.3.1.1.4.3.0';
const SNMP_TRAP_ADDRESS = '1.3.6.1.6.3.18.1.3.0';
const ENTERPRISE_SPECIFIC = 6;
const DOTTED_OID = /^[0-9]+(\.[0-9]+)+$/;
// C0 controls other than tab, LF and CR, DEL, and C1 controls mark binary data.
const NON_PRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** SNMP agents are devices (the document's entityType gap-fill: 1 device, 2 sensor, 3 interface). */
const SNMP_ENTITY_TYPE = 1;

const GENERIC_TRAP_PREFIX = '1.3.6.1.6.3.1.1.5.';
// Generic traps of RFC 1907 / RFC 3418 (SNMPv2-MIB snmpTraps).
const STANDARD_TRAPS = new Map(['coldStart', 'warmStart', 'linkDown', 'linkUp', 'authenticationFailure', 'egpNeighborLoss'].map((name, i) => [`${GENERIC_TRAP_PREFIX}${i + 1}`, name]));
// Objects that linkDown/linkUp and most device traps carry, named so the line reads well.
const OBJECT_NAMES = Object.entries({
  '1.3.6.1.2.1.2.2.1.1': 'ifIndex', '1.3.6.1.2.1.2.2.1.2': 'ifDescr', '1.3.6.1.2.1.2.2.1.7': 'ifAdminStatus', '1.3.6.1.2.1.2.2.1.8': 'ifOperStatus',
  '1.3.6.1.2.1.31.1.1.1.1': 'ifName', '1.3.6.1.2.1.31.1.1.1.18': 'ifAlias', '1.3.6.1.2.1.1.5': 'sysName', '1.3.6.1.2.1.1.6': 'sysLocation',
});
/** Bindings that frame the notification rather than describe the event (sysUpTime.0 … snmpTrapCommunity.0). */
const FRAMING_OIDS: ReadonlySet<string> = new Set([SYS_UP_TIME, SNMP_TRAP_OID, SNMP_TRAP_ENTERPRISE, SNMP_TRAP_ADDRESS, '1.3.6.1.6.3.18.1.4.0']);
const MAX_SHOWN = 6;
const MAX_VALUE_CHARS = 64;

function asBytes(value: unknown, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  throw new NotConvertibleError(`${what} value is not a byte string`);
}

/** Octets as text when they are printable UTF-8, else as colon-separated hex (`00:1a:2b`, the MAC address form). */
function renderOctets(bytes: Uint8Array): string {
  try {
    const text = utf8.decode(bytes);
    if (!NON_PRINTABLE.test(text)) return text;
  } catch {
    // not UTF-8: hex
  }
  return Buffer.from(bytes).toString('hex').replace(/(..)(?=.)/g, '$1:');
}

/** Counter64 (big-endian bytes) as a decimal string, always: a JSON number loses precision above 2^53. */
function counter64(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return BigInt(value).toString();
  const bytes = asBytes(value, 'Counter64');
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  if (bytes.length > 9 || n >= 1n << 64n) throw new NotConvertibleError('Counter64 value is longer than 64 bits');
  return n.toString();
}

function renderValue(type: TypeName, value: unknown): SnmpVarbind['value'] {
  const range = INTEGER_RANGES[type];
  if (range) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1]) throw new NotConvertibleError(`${type} value ${String(value)} is out of range`);
    return value;
  }
  if (type === 'Counter64') return counter64(value);
  if (type === 'OctetString' || type === 'Opaque') return renderOctets(asBytes(value, type));
  if (type === 'ObjectIdentifier' && !(typeof value === 'string' && DOTTED_OID.test(value))) throw new NotConvertibleError('ObjectIdentifier value is not a dotted OID');
  if (type === 'IpAddress' && !(typeof value === 'string' && isIPv4(value))) throw new NotConvertibleError('IpAddress value is not a dotted IPv4 address');
  return type === 'ObjectIdentifier' || type === 'IpAddress' ? (value as string) : null;
}

/** One decoded varbind in the document's `SnmpVarbind` shape; throws NotConvertibleError. */
function toSnmpVarbind(varbind: RawVarbind): SnmpVarbind {
  if (!DOTTED_OID.test(varbind.oid)) throw new NotConvertibleError(`varbind OID "${varbind.oid}" is not dotted`);
  const type = SNMP_TYPE_NAMES.get(varbind.type);
  if (!type) throw new NotConvertibleError(`varbind ${varbind.oid} has type tag ${varbind.type}, which is not an SMI type`);
  return { oid: varbind.oid, type, value: renderValue(type, varbind.value) };
}

const usableAddress = (address: unknown): address is string => typeof address === 'string' && isIP(address) !== 0 && address !== '0.0.0.0';

/**
 * SNMPv1 Trap-PDU to the SNMPv2 form (RFC 3584 3.1): the trap OID is the generic trap's or
 * enterprise.0.specific; the time-stamp becomes sysUpTime.0, and snmpTrapEnterprise.0 is appended.
 */
function fromV1({ pdu, rinfo }: Notification): { trapOid: string; sender: string; bindings: SnmpVarbind[] } {
  const { enterprise, generic, specific, upTime, agentAddr } = pdu;
  if (enterprise === undefined || !DOTTED_OID.test(enterprise)) throw new NotConvertibleError('v1 trap has no dotted enterprise OID');
  if (generic === undefined || !Number.isInteger(generic) || generic < 0 || generic > ENTERPRISE_SPECIFIC) throw new NotConvertibleError(`v1 trap has generic-trap ${String(generic)}, outside 0..6`);
  const enterpriseSpecific = generic === ENTERPRISE_SPECIFIC;
  if (enterpriseSpecific && (specific === undefined || !Number.isInteger(specific) || specific < 0)) throw new NotConvertibleError('v1 enterpriseSpecific trap has no valid specific-trap');
  const bindings = [{ oid: SYS_UP_TIME, type: 0x43, value: upTime ?? 0 }, ...pdu.varbinds, { oid: SNMP_TRAP_ENTERPRISE, type: 6, value: enterprise }].map(toSnmpVarbind);
  // RFC 1157: agent-addr is the address of the object generating the trap; 0.0.0.0 means unset.
  return { trapOid: enterpriseSpecific ? `${enterprise}.0.${String(specific)}` : `${GENERIC_TRAP_PREFIX}${generic + 1}`, sender: usableAddress(agentAddr) ? agentAddr : rinfo.address, bindings };
}

/** SNMPv2-Trap-PDU or InformRequest: snmpTrapOID.0 becomes `trapOid`, not a binding; sysUpTime.0 stays, as in the document's example. */
function fromV2({ pdu, rinfo }: Notification): { trapOid: string; sender: string; bindings: SnmpVarbind[] } {
  const trapOidBinding = pdu.varbinds.find((v) => v.oid === SNMP_TRAP_OID);
  if (!trapOidBinding) throw new NotConvertibleError('v2 trap has no snmpTrapOID.0 binding');
  const trapOid = toSnmpVarbind(trapOidBinding);
  if (trapOid.type !== 'ObjectIdentifier' || typeof trapOid.value !== 'string') throw new NotConvertibleError('snmpTrapOID.0 is not an ObjectIdentifier');
  const bindings = pdu.varbinds.filter((v) => v.oid !== SNMP_TRAP_OID).map(toSnmpVarbind);
  // A proxy that forwards a v1 trap names the original agent in snmpTrapAddress.0 (RFC 3584).
  const proxied = bindings.find((b) => b.oid === SNMP_TRAP_ADDRESS && b.type === 'IpAddress')?.value;
  return { trapOid: trapOid.value, sender: usableAddress(proxied) ? proxied : rinfo.address, bindings };
}

function objectName(oid: string): string {
  for (const [prefix, name] of OBJECT_NAMES) {
    if (oid === prefix) return name;
    if (oid.startsWith(`${prefix}.`)) return `${name}.${oid.slice(prefix.length + 1)}`;
  }
  return oid;
}

/** A one-line summary: `linkDown from 192.0.2.17: ifIndex=3, ifDescr=ge-0/0/3`. */
function trapText(trapOid: string, sender: string, bindings: readonly SnmpVarbind[]): string {
  const head = `${STANDARD_TRAPS.get(trapOid) ?? trapOid} from ${sender}`;
  const interesting = bindings.filter((b) => !FRAMING_OIDS.has(b.oid));
  if (interesting.length === 0) return head;
  const shown = (text: string) => (text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text);
  const parts = interesting.slice(0, MAX_SHOWN).map((b) => `${objectName(b.oid)}=${shown(String(b.value))}`);
  return `${head}: ${parts.join(', ')}${interesting.length > MAX_SHOWN ? ` (+${interesting.length - MAX_SHOWN} more)` : ''}`;
}

/** A received trap (v1 Trap-PDU, v2c Trap or Inform) as an event log record; throws NotConvertibleError when it cannot be one. */
export function snmpTrapToRecord(trap: Notification, stamp: { readonly id: string; readonly timestamp: number }): SnmpTrapRecord {
  const type = trap.pdu.type;
  if (type !== 164 && type !== 166 && type !== 167) throw new NotConvertibleError(`PDU type ${type} is not a notification`);
  const { trapOid, sender, bindings } = type === 164 ? fromV1(trap) : fromV2(trap);
  if (!usableAddress(sender)) throw new NotConvertibleError('the trap has no usable sender address');
  return {
    _id: stamp.id,
    type: 'snmp-trap',
    agentId: derivedObjectId('snmp-agent', sender),
    timestamp: stamp.timestamp,
    payload: { senderAddress: sender, trapOid, bindings, text: trapText(trapOid, sender, bindings) },
    entity: { entityId: derivedObjectId('snmp-entity', sender), entityType: SNMP_ENTITY_TYPE, entityName: sender },
  };
}
