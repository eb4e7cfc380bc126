import type { FastifyServerOptions } from 'fastify';
import type { ServerOptions } from 'node:http';

/**
 * How long a client may take and how many connections may be open, as settings of Fastify and
 * Node's HTTP server: together they shed slow clients in seconds and keep the fake's file
 * descriptors bounded, while every normal client (which sends its headers at once) is served.
 */
export interface ConnectionLimits {
  /** Most open connections; more are closed at once (`server.maxConnections`). */
  readonly maxConnections: number;
  /** A request's headers must be complete this long after it starts. */
  readonly headersTimeoutMs: number;
  /** A whole request (headers and body) must have arrived this long after it starts. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /**
   * A connection on which nothing moves for this long is closed (Node's socket timeout, Fastify's
   * `connectionTimeout`): a client that stops reading an answer, or a request the server works on
   * for longer (an injected `hang`; no added latency is that long).
   */
  readonly idleTimeoutMs: number;
  /** How often Node looks for requests over their time (Node's default, 30 s, would let them linger that much longer). */
  readonly checkIntervalMs: number;
}

export const defaultConnectionLimits: ConnectionLimits = {
  // Far below the usual file limits (Node raises its own to the hard limit, 4,096 at the
  // least on common systems), far above what tests, browsers and load tools open at once.
  maxConnections: 4000,
  // Clients send their headers in one go; 10 s is generous for a slow network and still sheds a flood in seconds.
  headersTimeoutMs: 10_000,
  // The largest body (a 16 MiB snapshot) takes well under a second on loopback.
  requestTimeoutMs: 30_000,
  // Node's own default, which clients' keep-alive pools expect; Fastify's 72 s suits load balancers, not a fake.
  keepAliveTimeoutMs: 5_000,
  // Longer than the largest added latency (60 s, the control document's maximum `latencyMs`).
  idleTimeoutMs: 120_000,
  checkIntervalMs: 1_000,
};

/** The Fastify options that apply the limits; `maxConnections` is set on the server once it exists. */
export function connectionOptions(limits: ConnectionLimits): Pick<FastifyServerOptions, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout'> & {
  http: ServerOptions;
} {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
      // A request without Host is answered by the fake (the document's Error body), not by Node with an empty 400.
      requireHostHeader: false,
    },
  };
}

/**
 * The listen backlog: how many new connections the kernel completes and queues until the fake
 * accepts (or, over the cap, closes) them. Past it the kernel drops a new connection's SYN and the
 * client waits for its retry (1 s, then 3 s), under the cap or over it: Node's default, 511, made
 * a burst of a thousand clients wait a second. Linux lowers any larger value to its own limit,
 * net.core.somaxconn (4,096 since Linux 5.4), so this asks for as many as the kernel allows.
 */
export const LISTEN_BACKLOG = 65_535;
