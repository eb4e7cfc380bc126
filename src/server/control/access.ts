import type { ErrorFactory } from '../../errors.js';
import type { ControlMessage } from '../error-messages.js';
import type { RequestCheck } from '../request-hooks.js';
import { isLoopback } from './loopback.js';

export interface ControlAccess {
  /** Let clients of any address in (a start-up choice; default loopback only). */
  readonly anyAddress: boolean;
  /** Whether a Host header names this server (see hostNamesThisServer). */
  readonly hostAllowed: (host: string) => boolean;
  /** Whether a browser page of this origin may call the API (the CORS allow-list). */
  readonly originAllowed: (origin: string) => boolean;
}

/**
 * The first check of every control route (so it runs for what the router matched, however
 * the path was spelled): only loopback clients (unless opened at start-up), only requests
 * whose Host names this server (a DNS-rebinding page sends its own name), and from a browser
 * only pages of an allowed origin or the fake's own pages, so a web page the developer
 * happens to visit cannot read, reset or reconfigure the fake.
 */
export function createControlAccessCheck(access: ControlAccess, errors: ErrorFactory, messages: ControlMessage): RequestCheck {
  return function controlAccess(request) {
    if (!access.anyAddress && !isLoopback(request.socket.remoteAddress)) {
      throw errors('PERMISSION_DENIED', messages('PERMISSION_DENIED', 'notLoopback'));
    }
    // HTTP/1.0 clients may send no Host; browsers always send one.
    const host = request.headers.host;
    if (host !== undefined && !access.hostAllowed(host)) {
      throw errors('PERMISSION_DENIED', messages('PERMISSION_DENIED', 'hostNotThisServer'));
    }
    const origin = request.headers.origin;
    // The fake's own pages (the control API's docs), now that their Host is known to be this server.
    const own = host !== undefined && origin === `${request.protocol}://${host}`;
    if (origin !== undefined && !own && !access.originAllowed(origin)) {
      throw errors('PERMISSION_DENIED', messages('PERMISSION_DENIED', 'originNotAllowed'));
    }
  };
}
