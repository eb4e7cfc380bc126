import { isIPv4, isIPv6 } from 'node:net';
import { isLoopback } from './control/loopback.js';

/** `name`, `name:port`, `[v6]` or `[v6]:port`: the host and the port, not yet checked. */
const HOST_HEADER = /^(?:\[([^\]]*)\]|([^:[\]]*))(?::(\d{1,5}))?$/;
/** Dot-separated labels of letters, digits, `-` and `_` (container names have it); a trailing dot is part of the name. */
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/;
const MAX_NAME_LENGTH = 253;

/**
 * The host name of a Host header, in lower case and without brackets, or undefined when the
 * header is not a host: a name, an IPv4 address or a bracketed IPv6 address (no zone), with
 * or without a port. Percent-escapes, other bytes, user info and empty labels are refused, so
 * no spelling of a name can pass for another.
 */
export function hostNameOf(header: string): string | undefined {
  const match = HOST_HEADER.exec(header);
  if (!match || (match[3] !== undefined && Number(match[3]) > 65535)) return undefined;
  const [, bracketed, plain] = match;
  if (bracketed !== undefined) return isIPv6(bracketed) && !bracketed.includes('%') ? bracketed.toLowerCase() : undefined;
  const name = plain!.toLowerCase();
  return name.length <= MAX_NAME_LENGTH && (isIPv4(name) || NAME.test(name)) ? name : undefined;
}

/** A host as given in an option: a Host header's host, or a bare IPv6 address (`--host ::1`). */
function optionHostName(value: string): string | undefined {
  return isIPv6(value) ? hostNameOf(`[${value}]`) : hostNameOf(value);
}

/** Addresses that listen on every interface, and so name no host. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The names a server was told to listen on: rules read `names`; only the holder of `add` widens them. */
export interface ListenNames {
  readonly names: ReadonlySet<string>;
  /** Adds the name of a host the server listens on; an address of every interface (0.0.0.0, ::) names no host and adds nothing. */
  add(host: string): void;
}

export function createListenNames(): ListenNames {
  const names = new Set<string>();
  return {
    names,
    add(host) {
      const name = WILDCARDS.has(host) ? undefined : optionHostName(host);
      if (name !== undefined) names.add(name);
    },
  };
}

/** Which Host headers a server answers, beside `localhost` and loopback addresses, which it always answers. */
export interface HostRule {
  /** Names (or addresses) answered exactly, case aside. */
  readonly names?: readonly string[];
  /**
   * Names added once the server listens (ListenNames): the host it was told to listen on. Names
   * are only ever added, never taken back, so the last Host answered stays answered.
   */
  readonly listening?: ReadonlySet<string>;
  /** Entries in the manner of Vite's `server.allowedHosts`: a name, `.name` for the name and its subdomains, `*` for any Host. */
  readonly patterns?: readonly string[];
  /** Any IP address literal, not only loopback ones: a DNS-rebinding page presents its own name, never an address. */
  readonly anyAddress?: boolean;
}

/** Whether a `patterns` entry is one: `*`, or a host name or address, with an optional leading dot (no port). */
export function isHostPattern(entry: string): boolean {
  if (entry === '*') return true;
  const name = entry.startsWith('.') ? entry.slice(1) : entry;
  return optionHostName(name) === name.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Whether a Host header is one the rule answers: `localhost` or a loopback address, with any
 * port (a forwarded port changes the port, never the name), or one the rule lists. A page that
 * rebinds its own DNS name to 127.0.0.1 still sends its own name, so it is refused; so is a
 * header that is not a valid host.
 */
export function hostRule(rule: HostRule): (header: string) => boolean {
  const patterns = rule.patterns ?? [];
  const bad = patterns.find((entry) => !isHostPattern(entry));
  if (bad !== undefined) throw new Error(`Allowed host "${bad}" is not a host name or address, .name (the name and its subdomains) or *.`);
  if (patterns.includes('*')) return () => true;
  const exact = new Set([...(rule.names ?? []), ...patterns.filter((p) => !p.startsWith('.'))].map((n) => optionHostName(n) ?? n.toLowerCase()));
  const suffixes = patterns.filter((p) => p.startsWith('.')).map((p) => p.toLowerCase());
  const listening = rule.listening ?? new Set<string>();
  const answers = (header: string): boolean => {
    const name = hostNameOf(header);
    if (name === undefined) return false;
    if (name === 'localhost' || isLoopback(name) || exact.has(name) || listening.has(name)) return true;
    if (rule.anyAddress && (isIPv4(name) || isIPv6(name))) return true;
    return suffixes.some((suffix) => name === suffix.slice(1) || name.endsWith(suffix));
  };
  // Every request of a client names the same Host: the last one answered is not parsed again.
  let lastAnswered: string | undefined;
  return (header) => {
    if (header === lastAnswered) return true;
    if (!answers(header)) return false;
    lastAnswered = header;
    return true;
  };
}

/** The control API's rule: `localhost`, loopback addresses and the names given (and listened on), exactly. */
export const hostNamesThisServer = (names: readonly string[], listening?: ReadonlySet<string>): ((header: string) => boolean) => hostRule({ names, listening });
