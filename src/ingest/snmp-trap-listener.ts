import dgram, { type RemoteInfo, type Socket, type SocketType } from 'node:dgram';
import { once } from 'node:events';
import { isIPv6 } from 'node:net';
import snmp from 'net-snmp';
import type { DropReason } from '../spec/control-types.js';
import { createDelivery, type IngestHandle, type IngestOptions } from './delivery.js';
import type { IngestLimits } from '../spec/limits.js';
import { snmpTrapToRecord } from './snmp-trap-to-record.js';

export interface SnmpTrapListenerOptions extends IngestOptions {
  /** Accepted v1/v2c communities; default `public`. Traps with another community are dropped. */
  readonly community?: string | readonly string[];
  /** The largest datagram taken (the control API document's x-ingest-limits). */
  readonly limits: Pick<IngestLimits, 'snmpPacketBytes'>;
}

// net-snmp reports packet problems through its error callback; only the error's class is
// used, never its message, which can quote the community string.
const REASONS: Readonly<Record<string, DropReason>> = { RequestFailedError: 'unknown-community', RequestInvalidError: 'unsupported', ProcessingError: 'malformed', ResponseInvalidError: 'malformed' };

/** Listens for SNMPv1 and v2c traps (and v2c informs) on UDP and turns each into an SnmpTrapRecord. */
export async function startSnmpTrapListener(options: SnmpTrapListenerOptions): Promise<IngestHandle> {
  const { port, host = '127.0.0.1', clock, limits } = options;
  const delivery = createDelivery(options);
  const transport: SocketType = isIPv6(host) ? 'udp6' : 'udp4';

  // net-snmp turns port 0 into its default 162 (`options.port || 162`), so the socket is
  // created here, through its documented `dgramModule` hook, and bound to the port asked for.
  // It has no size limit either: a datagram over ours is counted and never reaches its decoder.
  let socket: Socket | undefined;
  const dgramModule = {
    createSocket(type: SocketType): Socket {
      const created = dgram.createSocket(type);
      const bind = created.bind.bind(created);
      created.bind = (() => bind(port, host)) as Socket['bind'];
      const on = created.on.bind(created);
      created.on = ((event: string, listener: (message: Buffer, rinfo: RemoteInfo) => void) =>
        on(event, event !== 'message' ? listener : (message: Buffer, rinfo: RemoteInfo) => {
          if (message.length <= limits.snmpPacketBytes) return listener(message, rinfo);
          delivery.drop({ reason: 'too-large', detail: `a datagram over ${limits.snmpPacketBytes} bytes`, from: rinfo.address });
        })) as Socket['on'];
      socket = created;
      return created;
    },
  };

  let listening = false;
  const receiver = snmp.createReceiver({ port: port || 162, address: host, transport, dgramModule }, (error, notification) => {
    if (!listening) return; // a bind failure is reported by start-up below
    if (error) {
      const from = (error as Error & { rinfo?: { address?: string } }).rinfo?.address;
      return delivery.drop({ reason: REASONS[error.name] ?? 'transport-error', detail: error.name, from });
    }
    if (!notification) return;
    const timestamp = clock.now();
    delivery.deliver(() => snmpTrapToRecord(notification, { id: delivery.nextId(timestamp), timestamp }), notification.rinfo.address);
  });
  for (const community of [options.community ?? 'public'].flat()) receiver.getAuthorizer().addCommunity(community);

  if (!socket) throw new Error('net-snmp did not create its socket through dgramModule');
  try {
    await once(socket, 'listening');
  } catch (error) {
    socket.close(); // the bind failed; the socket holds nothing else
    throw error;
  }
  listening = true;
  let closing: Promise<void> | undefined;
  return { port: socket.address().port, stats: delivery.stats, close: () => (closing ??= new Promise<void>((resolve) => receiver.close(() => resolve()))) };
}
