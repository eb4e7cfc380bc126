import type { FastifyInstance } from 'fastify';

/** Where a listening fake answers. */
export interface FakeUrls {
  /** e.g. http://127.0.0.1:4010 */
  readonly origin: string;
  /** The monitoring API: origin + /node/api */
  readonly baseUrl: string;
  /** The docs page: origin + /docs */
  readonly docsUrl: string;
  /** The control API: origin + /__control */
  readonly controlUrl: string;
  /** The request inspector page: origin + /__inspector */
  readonly inspectorUrl: string;
}

/** The URLs of a listening app, by the host it listens on (an IPv6 address goes in brackets). */
export function urlsOf(app: FastifyInstance, host: string): FakeUrls {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { origin, baseUrl: `${origin}/node/api`, docsUrl: `${origin}/docs`, controlUrl: `${origin}/__control`, inspectorUrl: `${origin}/__inspector` };
}
