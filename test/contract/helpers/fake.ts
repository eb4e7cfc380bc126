// The real fake, listening on a free loopback port, with a log of every request it got.
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import type { FakeOptions } from '../../../src/server/options.js';

export interface ListeningFake {
  readonly app: FakeApp;
  readonly url: string;
  readonly requests: { method: string; url: string }[];
  close(): Promise<void>;
}

export const ADMIN = { login: 'admin', password: 'admin-password' } as const;
export const VIEWER = { login: 'viewer', password: 'viewer-password' } as const;
/** Holds manage-event-log only: accepted on the payload update, refused on what needs manage-users. */
export const OPERATOR = { login: 'operator', password: 'operator-password' } as const;

export async function listeningFake(options: FakeOptions = {}): Promise<ListeningFake> {
  const app = await buildFake(options);
  const requests: { method: string; url: string }[] = [];
  await app.listen({ port: 0, host: '127.0.0.1' });
  // The app is ready (no more hooks); the HTTP server still tells of every request.
  app.server.on('request', (request: { method?: string; url?: string }) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '' });
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${port}`, requests, close: () => app.close() };
}
