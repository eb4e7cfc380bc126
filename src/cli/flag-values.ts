import { InvalidArgumentError } from 'commander';
import { anchorTime as parseAnchor } from '../seed/anchor.js';
import { isHostPattern } from '../server/host-origin-guard.js';

/** An integer from min to max. */
export function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

/** A TCP or UDP port (0: a free one). */
export const port = integer(0, 65535);

const TRUE = new Set(['', 'yes', 'true', 'on', '1']);
const FALSE = new Set(['no', 'false', 'off', '0']);

/** yes/no, true/false, on/off or 1/0 (a flag given without a value is yes). */
export function yesNo(value: string | boolean): boolean {
  if (typeof value === 'boolean') return value;
  const v = value.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new InvalidArgumentError('expected yes or no');
}

/** A repeatable flag whose values (and the environment variable's) may also be comma-separated. */
export function list(value: string, previous: readonly string[] = []): string[] {
  const items = value.split(',').map((v) => v.trim()).filter((v) => v.length > 0);
  if (items.length === 0) throw new InvalidArgumentError('expected a value');
  return [...previous, ...items];
}

/** "now", an ISO date-time, or milliseconds since the epoch; as milliseconds. */
export function anchorTime(now: () => number) {
  return (value: string): number => {
    try {
      return parseAnchor(value, now);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/** `--anchor`: "now", kept as such (the fake reads its clock when it starts), or an instant in ms. */
export function anchorFlag(value: string): number | 'now' {
  return value.trim().toLowerCase() === 'now' ? 'now' : anchorTime(() => Date.now())(value);
}

/** A browser origin: scheme, host and optional port, nothing after. */
export function origin(value: string, previous: readonly string[] = []): string[] {
  const origins = list(value, []).map((o) => o.replace(/\/+$/, ''));
  for (const o of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(o);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== o) {
      throw new InvalidArgumentError(`"${o}" is not an origin such as http://localhost:5173`);
    }
  }
  return [...previous, ...origins];
}

/** `--allowed-host`: host names or addresses, `.name` for a name and its subdomains, or `*`. */
export function allowedHost(value: string, previous: readonly string[] = []): string[] {
  const entries = list(value, []);
  const bad = entries.find((entry) => !isHostPattern(entry));
  if (bad !== undefined) throw new InvalidArgumentError(`"${bad}" is not a host name or address (no port), .name (the name and its subdomains) or *`);
  return [...previous, ...entries];
}
