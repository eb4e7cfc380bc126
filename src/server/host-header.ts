import type { FastifyReply } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import type { FrontStep } from './front-door.js';
import { passCheck, type RequestCheck } from './request-hooks.js';
import { repeatedHeader } from './repeated-headers.js';
import { hasUserinfo, targetAuthority, targetHasUserinfo } from './request-target.js';

/**
 * The Host checks, the first step of the front door (front-door.ts), so before CORS.
 *
 * HTTP/1.1 requires a Host header. Node would refuse a request without one itself, with an
 * empty 400 outside the document; the fake refuses it here with the document's Error body.
 * (HTTP/1.0 has no Host requirement.) It requires one Host, Authorization and Content-Type header, not several, and with an
 * absolute-form request target the target's host replaces the header (RFC 9112 3.2, 3.2.2),
 * so that every Host check after this one judges the host the request names.
 *
 * The CORS step answers every preflight (an OPTIONS request) itself, before the route
 * the router matched runs any check; so `preflightHost` (the API's Host check) runs here for
 * every OPTIONS request, whatever the path and however it is spelled. A
 * DNS-rebinding page then learns nothing from a preflight either.
 */
export function createHostChecks(errors: ErrorFactory, messages: ErrorMessage, preflightHost: RequestCheck): FrontStep {
  const hostMissing = messages('MALFORMED_REQUEST', 'hostMissing');
  const targetUserinfo = messages('MALFORMED_REQUEST', 'targetUserinfo');
  const hostUserinfo = messages('MALFORMED_REQUEST', 'hostUserinfo');
  /** A request HTTP/1.1 does not allow: answered as Node's parser refusals are, then the connection closed. */
  const refuse = (reply: FastifyReply, message: string): never => {
    void reply.header('connection', 'close');
    throw errors('MALFORMED_REQUEST', message);
  };
  return function hostChecks(request, reply) {
    const raw = request.raw;
    // Node keeps the first Host (Authorization, Content-Type) and drops the others; a proxy in front may have used another.
    const repeated = repeatedHeader(raw.rawHeaders);
    if (repeated !== undefined) refuse(reply, messages('MALFORMED_REQUEST', 'headerRepeated', { name: repeated }));
    // A Host with user info (the sender's password) is refused as sent, before a target replaces it, and never repeated.
    if (raw.headers.host !== undefined && hasUserinfo(raw.headers.host)) refuse(reply, hostUserinfo);
    if (raw.url!.charCodeAt(0) !== 47 /* '/' */) {
      // Credentials in a target (of any scheme) would be echoed as a Host or a path, and HTTP never sends them there.
      if (targetHasUserinfo(raw.url!)) refuse(reply, targetUserinfo);
      // An absolute-form target (`GET http://host/path`): its host is the request's host.
      const authority = targetAuthority(raw.url!);
      if (authority !== undefined) raw.headers.host = authority;
    }
    if (request.headers.host === undefined && raw.httpVersion !== '1.0') refuse(reply, hostMissing);
    if (request.method === 'OPTIONS') passCheck(preflightHost, request);
  };
}
