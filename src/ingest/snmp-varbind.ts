import { isIPv4 } from 'node:net';
import type { SnmpVarbind } from '../spec/types.js';
import { NotConvertibleError } from './delivery.js';

/** A varbind as net-snmp decodes it: `type` is the ASN.1 tag. */
export interface DecodedVarbind {
  readonly oid: string;
  readonly type: number;
  readonly value: unknown;
}

type TypeName = SnmpVarbind['type'];

// ASN.1 / SMI tags (RFC 3416) to the document's type names. Boolean (1) and BitString (3)
// are not SMI types and have no name in the document: a trap carrying them is not converted.
export const SNMP_TYPE_NAMES: ReadonlyMap<number, TypeName> = new Map<number, TypeName>([
  [2, 'Integer'],
  [4, 'OctetString'],
  [5, 'Null'],
  [6, 'ObjectIdentifier'],
  [0x40, 'IpAddress'],
  [0x41, 'Counter32'],
  [0x42, 'Gauge32'],
  [0x43, 'TimeTicks'],
  [0x44, 'Opaque'],
  [0x46, 'Counter64'],
  [0x80, 'NoSuchObject'],
  [0x81, 'NoSuchInstance'],
  [0x82, 'EndOfMibView'],
]);

const DOTTED_OID = /^[0-9]+(\.[0-9]+)+$/;
// C0 controls other than tab, LF and CR, DEL, and C1 controls mark binary data.
const NON_PRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Octets as text when they are printable UTF-8, else as colon-separated hex (`00:1a:2b`, the MAC address form). */
function renderOctets(bytes: Uint8Array): string {
  try {
    const text = utf8.decode(bytes);
    if (!NON_PRINTABLE.test(text)) return text;
  } catch {
    // not UTF-8: fall through to hex
  }
  return Buffer.from(bytes).toString('hex').replace(/(..)(?=.)/g, '$1:');
}

function asBytes(value: unknown, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  throw new NotConvertibleError(`${what} value is not a byte string`);
}

function asInteger(value: unknown, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new NotConvertibleError(`${what} value ${String(value)} is out of range`);
  }
  return value;
}

/**
 * Counter64 arrives as big-endian bytes. It is rendered as a decimal string, always:
 * a JSON number loses precision above 2^53, and a type that changed with the value
 * would be worse for clients than one string form.
 */
function counter64(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return BigInt(value).toString();
  const bytes = asBytes(value, 'Counter64');
  if (bytes.length > 9) throw new NotConvertibleError('Counter64 value is longer than 64 bits');
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  if (n >= 1n << 64n) throw new NotConvertibleError('Counter64 value is longer than 64 bits');
  return n.toString();
}

function renderValue(type: TypeName, value: unknown): SnmpVarbind['value'] {
  switch (type) {
    case 'Integer':
      return asInteger(value, -(2 ** 31), 2 ** 31 - 1, type);
    case 'Counter32':
    case 'Gauge32':
    case 'TimeTicks':
      return asInteger(value, 0, 2 ** 32 - 1, type);
    case 'Counter64':
      return counter64(value);
    case 'OctetString':
    case 'Opaque':
      return renderOctets(asBytes(value, type));
    case 'ObjectIdentifier':
      if (typeof value !== 'string' || !DOTTED_OID.test(value)) throw new NotConvertibleError('ObjectIdentifier value is not a dotted OID');
      return value;
    case 'IpAddress':
      if (typeof value !== 'string' || !isIPv4(value)) throw new NotConvertibleError('IpAddress value is not a dotted IPv4 address');
      return value;
    case 'Null':
    case 'NoSuchObject':
    case 'NoSuchInstance':
    case 'EndOfMibView':
      return null;
  }
}

/** One decoded varbind in the document's `SnmpVarbind` shape; throws NotConvertibleError. */
export function toSnmpVarbind(varbind: DecodedVarbind): SnmpVarbind {
  if (!DOTTED_OID.test(varbind.oid)) throw new NotConvertibleError(`varbind OID "${varbind.oid}" is not dotted`);
  const type = SNMP_TYPE_NAMES.get(varbind.type);
  if (!type) throw new NotConvertibleError(`varbind ${varbind.oid} has type tag ${varbind.type}, which is not an SMI type`);
  return { oid: varbind.oid, type, value: renderValue(type, varbind.value) };
}
