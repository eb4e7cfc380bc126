// The parts of net-snmp (which ships no types) that the trap listener and its tests use.
declare module 'net-snmp' {
  import type { Socket, SocketType } from 'node:dgram';

  export interface RawVarbind {
    oid: string;
    /** ASN.1 tag. */
    type: number;
    value: unknown;
  }
  export interface TrapOptions {
    agentAddr?: string;
    upTime?: number;
  }
  /** A trap as the receiver delivers it; `pdu.type` 164 Trap-PDU (v1), 166 InformRequest, 167 SNMPv2-Trap-PDU. */
  export interface Notification {
    pdu: { type: number; varbinds: RawVarbind[]; enterprise?: string; agentAddr?: string; generic?: number; specific?: number; upTime?: number };
    rinfo: { address: string };
  }
  interface Receiver {
    getAuthorizer(): { addCommunity(community: string): void };
    close(callback: () => void): void;
  }
  interface Session {
    trap(typeOrOid: number | string, varbinds: RawVarbind[], options: TrapOptions, callback: (error: Error | null) => void): void;
    close(): void;
  }
  type ReceiverOptions = { port: number; address: string; transport: SocketType; dgramModule: { createSocket(type: SocketType): Socket } };

  const snmp: {
    createReceiver(options: ReceiverOptions, callback: (error: Error | null, notification: Notification | null) => void): Receiver;
    createSession(target: string, community: string, options: { version: number; trapPort?: number }): Session;
    Version1: number;
    Version2c: number;
    ObjectType: Readonly<Record<'Boolean' | 'Integer' | 'OctetString' | 'OID' | 'IpAddress' | 'Counter' | 'Gauge' | 'Counter64', number>>;
    TrapType: Readonly<Record<'ColdStart' | 'WarmStart' | 'LinkDown' | 'LinkUp', number>>;
  };
  export default snmp;
}
