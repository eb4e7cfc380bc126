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

/** `name`, `name:port`, `[v6]` or `[v6]:port`; the name in lower case, brackets dropped. */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([^\s:[\]/@]+))(?::\d{1,5})?$/i;

/** The host name of a Host header, or undefined when the header is not one. */
export function hostNameOf(header: string): string | undefined {
  const match = HOST_HEADER.exec(header);
  if (!match) return undefined;
  return (match[1] ?? match[2])!.toLowerCase();
}

/**
 * Whether a Host header names this server: `localhost` or a loopback address, with any port
 * (a forwarded port changes the port, never the name), or one of `names`. A page that rebinds
 * its own DNS name to 127.0.0.1 still sends its own name, so it is refused.
 */
export function hostNamesThisServer(names: readonly string[]): (header: string) => boolean {
  const extra = new Set(names.map((name) => hostNameOf(name) ?? name.toLowerCase()));
  return (header) => {
    const name = hostNameOf(header);
    if (name === undefined) return false;
    return name === 'localhost' || isLoopback(name) || extra.has(name);
  };
}
