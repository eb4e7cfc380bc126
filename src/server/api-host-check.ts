import type { ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import { hostNameOf } from './host-names.js';
import type { RequestCheck } from './request-hooks.js';

/** The most of a refused Host header a message repeats. */
const SHOWN_HOST_CHARS = 200;

/**
 * The first check of every route of the monitoring API (and of its paths no route takes): only
 * requests whose Host header names this server or an allowed host. A web page that rebinds its
 * own DNS name to 127.0.0.1 (DNS rebinding) reaches the fake under that name, and could
 * otherwise log in with the seeded passwords. A request without Host (HTTP/1.0) passes:
 * browsers always send one.
 */
export function createApiHostCheck(hostAllowed: (host: string) => boolean, errors: ErrorFactory, messages: ErrorMessage): RequestCheck {
  return function apiHost(request) {
    const host = request.headers.host;
    if (host === undefined || hostAllowed(host)) return;
    const shown = JSON.stringify(host.slice(0, SHOWN_HOST_CHARS));
    const name = hostNameOf(host);
    const message = name === undefined ? messages('PERMISSION_DENIED', 'hostInvalid', { host: shown }) : messages('PERMISSION_DENIED', 'hostNotAllowed', { host: shown, name });
    throw errors('PERMISSION_DENIED', message);
  };
}
