// What the runner may do to a server: against anything but loopback it only reads (and logs a
// session in and out) unless writes are allowed explicitly.
import { isIP } from 'node:net';

/** Writes (PATCH/POST/DELETE beyond session log-in/out, each restored or confined to the low-privilege user), tripping rate limits on purpose, and why writes are on or off, for the report. */
export type SafetyPolicy = ReturnType<typeof decidePolicy>;

/** Session log-in and log-out are allowed even in read-only mode. */
const SESSION_OPERATIONS = new Set(['createSession', 'deleteSession']);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class SafetyError extends Error {}

export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

export interface PolicyInput {
  /** The server that will receive the requests (behind a proxy: the proxy's target). */
  readonly targetUrl: string;
  /** true/false when given on the command line; undefined for the default. */
  readonly allowWrites?: boolean;
  readonly probeLimits?: boolean;
  readonly isLoopback?: (url: URL) => boolean;
}

export function decidePolicy(input: PolicyInput) {
  const loopback = (input.isLoopback ?? isLoopbackUrl)(new URL(input.targetUrl));
  const writes = input.allowWrites ?? loopback;
  const reason =
    input.allowWrites === true ? 'writes allowed (--allow-writes)'
    : input.allowWrites === false ? 'read-only (--read-only)'
    : loopback ? 'writes allowed (loopback target)'
    : 'read-only (not a loopback target; --allow-writes to change)';
  return { writes, probeLimits: input.probeLimits === true, reason };
}

/** Whether the policy lets a request of this method and operation leave the runner. */
export function isAllowed(policy: SafetyPolicy, method: string, operationId: string): boolean {
  return READS.has(method.toUpperCase()) || SESSION_OPERATIONS.has(operationId) || policy.writes;
}

/** The last line of defence: a request the policy forbids never leaves the runner. */
export function assertAllowed(policy: SafetyPolicy, method: string, operationId: string): void {
  if (isAllowed(policy, method, operationId)) return;
  throw new SafetyError(`${method} for ${operationId} refused: ${policy.reason}`);
}
