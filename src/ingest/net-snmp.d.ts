// The parts of net-snmp (which ships no types) that the trap listener and its tests use.
declare module 'net-snmp' {
  import type { Socket, SocketType } from 'node:dgram';

  export interface RawVarbind {
    oid: string;
    /** ASN.1 tag, a key of `ObjectType`. */
    type: number;
    value: unknown;
  }

  export interface RawPdu {
    /** A key of `PduType`: Trap (v1), TrapV2 or InformRequest. */
    type: number;
    varbinds: RawVarbind[];
    /** SNMPv1 Trap-PDU fields. */
    enterprise?: string;
    agentAddr?: string;
    generic?: number;
    specific?: number;
    upTime?: number;
  }

  export interface Notification {
    pdu: RawPdu;
    rinfo: { address: string; family: string; port: number; size: number };
  }

  export interface Authorizer {
    addCommunity(community: string): void;
  }

  export interface Receiver {
    getAuthorizer(): Authorizer;
    close(callback?: (socketInfo: unknown) => void): void;
  }

  export interface ReceiverOptions {
    port?: number;
    address?: string | null;
    transport?: SocketType;
    disableAuthorization?: boolean;
    includeAuthentication?: boolean;
    dgramModule?: { createSocket(type: SocketType): Socket };
  }

  export interface TrapOptions {
    agentAddr?: string;
    upTime?: number;
  }

  export interface Session {
    trap(typeOrOid: number | string, varbinds: RawVarbind[], options: TrapOptions | string, callback: (error: Error | null) => void): Session;
    close(): Session;
  }

  export interface SessionOptions {
    version?: number;
    trapPort?: number;
    transport?: SocketType;
  }

  export function createReceiver(options: ReceiverOptions, callback: (error: Error | null, notification: Notification | null) => void): Receiver;
  export function createSession(target: string, community: string, options?: SessionOptions): Session;

  export const Version1: number;
  export const Version2c: number;
  export const ObjectType: {
    readonly Boolean: 1;
    readonly Integer: 2;
    readonly OctetString: 4;
    readonly Null: 5;
    readonly OID: 6;
    readonly IpAddress: 64;
    readonly Counter: 65;
    readonly Gauge: 66;
    readonly TimeTicks: 67;
    readonly Opaque: 68;
    readonly Counter64: 70;
  };
  export const TrapType: {
    readonly ColdStart: 0;
    readonly WarmStart: 1;
    readonly LinkDown: 2;
    readonly LinkUp: 3;
    readonly AuthenticationFailure: 4;
    readonly EgpNeighborLoss: 5;
    readonly EnterpriseSpecific: 6;
  };

  const snmp: {
    createReceiver: typeof createReceiver;
    createSession: typeof createSession;
    Version1: number;
    Version2c: number;
    ObjectType: typeof ObjectType;
    TrapType: typeof TrapType;
  };
  export default snmp;
}
