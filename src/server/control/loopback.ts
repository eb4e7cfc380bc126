import { BlockList, isIPv6 } from 'node:net';
import type { onRequestHookHandler } from 'fastify';
import type { ErrorFactory } from '../../errors.js';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether an address (as a socket reports it, IPv4-mapped IPv6 included) is a loopback address. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return loopback.check(mapped, 'ipv4');
  return loopback.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}

export interface ControlAccess {
  /** Let clients of any address in (a start-up choice; default loopback only). */
  readonly anyAddress: boolean;
  /** Whether a browser page of this origin may call the API (the CORS allow-list). */
  readonly originAllowed: (origin: string) => boolean;
}

/**
 * Guards every request under `prefix`: only loopback clients (unless opened at start-up),
 * and from a browser only pages of an allowed origin, so a web page the developer happens to
 * visit cannot reset or reconfigure the fake with a simple (unpreflighted) request.
 */
export function createControlAccessHook(prefix: string, access: ControlAccess, errors: ErrorFactory): onRequestHookHandler {
  // A callback hook: every request passes here, and almost none is for the control API.
  return function controlAccess(request, _reply, done) {
    if (request.url !== prefix && !request.url.startsWith(`${prefix}/`)) {
      done();
      return;
    }
    if (!access.anyAddress && !isLoopback(request.socket.remoteAddress)) {
      done(errors('PERMISSION_DENIED', 'The control API answers loopback clients only.'));
      return;
    }
    const origin = request.headers.origin;
    // The fake's own pages (the control API's docs) are always allowed.
    const own = origin === `${request.protocol}://${request.host}`;
    if (origin !== undefined && !own && !access.originAllowed(origin)) {
      done(errors('PERMISSION_DENIED', 'The control API does not answer pages of this origin.'));
      return;
    }
    done();
  };
}
