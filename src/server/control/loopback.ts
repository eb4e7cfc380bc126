import { BlockList, isIP, isIPv6 } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether an address (as a socket reports it, IPv4-mapped IPv6 included) is a loopback address. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return loopback.check(mapped, 'ipv4');
  if (isIP(address) === 0) return false;
  return loopback.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}
