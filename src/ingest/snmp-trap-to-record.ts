import { isIP } from 'node:net';
import type { SnmpTrapRecord, SnmpVarbind } from '../spec/types.js';
import { NotConvertibleError } from './delivery.js';
import { derivedObjectId } from '../shared/derived-id.js';
import { trapText } from './snmp-trap-text.js';
import { toSnmpVarbind, type DecodedVarbind } from './snmp-varbind.js';

/** A trap as net-snmp's receiver delivers it. */
export interface DecodedTrap {
  readonly pdu: {
    /** 164 Trap-PDU (v1), 166 InformRequest, 167 SNMPv2-Trap-PDU. */
    readonly type: number;
    readonly varbinds: readonly DecodedVarbind[];
    readonly enterprise?: string;
    readonly agentAddr?: string;
    readonly generic?: number;
    readonly specific?: number;
    readonly upTime?: number;
  };
  readonly rinfo: { readonly address: string };
}

const PDU_TRAP_V1 = 164;
const PDU_INFORM = 166;
const PDU_TRAP_V2 = 167;

const SYS_UP_TIME = '1.3.6.1.2.1.1.3.0';
const SNMP_TRAP_OID = '1.3.6.1.6.3.1.1.4.1.0';
const SNMP_TRAP_ENTERPRISE = '1.3.6.1.6.3.1.1.4.3.0';
const SNMP_TRAP_ADDRESS = '1.3.6.1.6.3.18.1.3.0';
const GENERIC_TRAP_PREFIX = '1.3.6.1.6.3.1.1.5.';
const ENTERPRISE_SPECIFIC = 6;
const DOTTED_OID = /^[0-9]+(\.[0-9]+)+$/;

/** SNMP agents are devices (the document's entityType gap-fill: 1 device, 2 sensor, 3 interface). */
const SNMP_ENTITY_TYPE = 1;

interface Normalized {
  readonly trapOid: string;
  readonly sender: string;
  readonly bindings: SnmpVarbind[];
}

function usableAddress(address: string | undefined): address is string {
  return address !== undefined && isIP(address) !== 0 && address !== '0.0.0.0';
}

/**
 * SNMPv1 Trap-PDU to the SNMPv2 form (RFC 3584 section 3.1): the trap OID is the generic
 * trap's (1.3.6.1.6.3.1.1.5.(generic+1)) or enterprise.0.specific; the time-stamp becomes
 * sysUpTime.0 first, and snmpTrapEnterprise.0 is appended so the enterprise is kept.
 */
function fromV1(trap: DecodedTrap): Normalized {
  const { enterprise, generic, specific, upTime, agentAddr } = trap.pdu;
  if (enterprise === undefined || !DOTTED_OID.test(enterprise)) throw new NotConvertibleError('v1 trap has no dotted enterprise OID');
  if (generic === undefined || !Number.isInteger(generic) || generic < 0 || generic > ENTERPRISE_SPECIFIC) {
    throw new NotConvertibleError(`v1 trap has generic-trap ${String(generic)}, outside 0..6`);
  }
  if (generic === ENTERPRISE_SPECIFIC && (specific === undefined || !Number.isInteger(specific) || specific < 0)) {
    throw new NotConvertibleError('v1 enterpriseSpecific trap has no valid specific-trap');
  }
  const trapOid = generic === ENTERPRISE_SPECIFIC ? `${enterprise}.0.${String(specific)}` : `${GENERIC_TRAP_PREFIX}${generic + 1}`;
  const bindings = [
    toSnmpVarbind({ oid: SYS_UP_TIME, type: 0x43, value: upTime ?? 0 }),
    ...trap.pdu.varbinds.map(toSnmpVarbind),
    toSnmpVarbind({ oid: SNMP_TRAP_ENTERPRISE, type: 6, value: enterprise }),
  ];
  // RFC 1157: agent-addr is the address of the object generating the trap; 0.0.0.0 means unset.
  const sender = usableAddress(agentAddr) ? agentAddr : trap.rinfo.address;
  return { trapOid, sender, bindings };
}

/**
 * SNMPv2-Trap-PDU or InformRequest: the trap OID is the value of snmpTrapOID.0. That binding
 * is left out of `bindings` (it is `trapOid`); sysUpTime.0 stays, as in the document's example.
 */
function fromV2(trap: DecodedTrap): Normalized {
  const trapOidBinding = trap.pdu.varbinds.find((v) => v.oid === SNMP_TRAP_OID);
  if (!trapOidBinding) throw new NotConvertibleError('v2 trap has no snmpTrapOID.0 binding');
  const trapOid = toSnmpVarbind(trapOidBinding);
  if (trapOid.type !== 'ObjectIdentifier' || typeof trapOid.value !== 'string') {
    throw new NotConvertibleError('snmpTrapOID.0 is not an ObjectIdentifier');
  }
  const bindings = trap.pdu.varbinds.filter((v) => v.oid !== SNMP_TRAP_OID).map(toSnmpVarbind);
  // A proxy that forwards a v1 trap names the original agent in snmpTrapAddress.0 (RFC 3584).
  const proxied = bindings.find((b) => b.oid === SNMP_TRAP_ADDRESS && b.type === 'IpAddress')?.value;
  const sender = typeof proxied === 'string' && usableAddress(proxied) ? proxied : trap.rinfo.address;
  return { trapOid: trapOid.value, sender, bindings };
}

function normalize(trap: DecodedTrap): Normalized {
  switch (trap.pdu.type) {
    case PDU_TRAP_V1:
      return fromV1(trap);
    case PDU_TRAP_V2:
    case PDU_INFORM:
      return fromV2(trap);
    default:
      throw new NotConvertibleError(`PDU type ${trap.pdu.type} is not a notification`);
  }
}

/** A received trap as an event log record; throws NotConvertibleError when it cannot be one. */
export function snmpTrapToRecord(trap: DecodedTrap, stamp: { readonly id: string; readonly timestamp: number }): SnmpTrapRecord {
  const { trapOid, sender, bindings } = normalize(trap);
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
