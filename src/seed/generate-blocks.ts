import type { BlockedRequest } from '../spec/types.js';
import { DEFAULT_END_TIME, DEFAULT_SEED, DEFAULT_SPAN_MS } from './generate-events.js';
import { checkWindow, englishFaker, spreadTimestamps } from './draws.js';

export const DEFAULT_BLOCK_COUNT = 40;

export interface GenerateBlocksOptions {
  readonly seed?: number;
  readonly count?: number;
  readonly endTime?: number;
  readonly spanMs?: number;
  /**
   * The users that blocks by login or user id name (a users fixture's); without any, every
   * block is by IP address or URI, so that no record names a user who does not exist.
   */
  readonly users?: readonly BlockedUser[];
}

/** A user as a block names it: the login and the id of a user of the users fixture. */
export interface BlockedUser {
  readonly login: string;
  readonly id: string;
}

/** The API paths that clients hammer, and so get blocked on. */
const URIS = ['/node/api/users/session', '/node/api/event-log', '/node/api/users/current', '/node/api/limit-block-log'];
const TTLS = [
  { weight: 5, value: 60 },
  { weight: 3, value: 300 },
  { weight: 2, value: 900 },
  { weight: 1, value: 3600 },
];

/**
 * Deterministic historic blocked-request records in timestamp order: blocks by IP address,
 * by login (with the user id, on the log-in path), by user id and by URI.
 */
export function generateBlocks(options: GenerateBlocksOptions = {}): BlockedRequest[] {
  const { seed = DEFAULT_SEED, count = DEFAULT_BLOCK_COUNT, endTime = DEFAULT_END_TIME, spanMs = DEFAULT_SPAN_MS, users = [] } = options;
  checkWindow({ seed, count, endTime, spanMs });
  // Its own stream, so the block log does not change when the event generator draws differently.
  const faker = englishFaker(seed + 1);
  const ips = [
    ...Array.from({ length: 5 }, () => faker.internet.ipv4({ cidrBlock: '198.51.100.0/24' })),
    ...Array.from({ length: 5 }, () => faker.internet.ipv4({ cidrBlock: '203.0.113.0/24' })),
  ];
  const times = spreadTimestamps(faker, count, endTime, spanMs);
  const blocks: BlockedRequest[] = [];
  for (let i = 0; i < count; i++) {
    const timestamp = times[i] as number;
    const ttl = faker.helpers.weightedArrayElement(TTLS);
    const kind = faker.helpers.weightedArrayElement([
      { weight: 4, value: 'ip' },
      { weight: 2, value: 'login' },
      { weight: 2, value: 'user' },
      { weight: 2, value: 'uri' },
    ] as const);
    // Drawn whatever the kind, so that the users given change who is named, not the other draws.
    const who = users[faker.number.int({ min: 0, max: Math.max(users.length - 1, 0) })];
    if (kind === 'login' && who) blocks.push({ login: who.login, user: who.id, uri: URIS[0], timestamp, ttl });
    else if (kind === 'user' && who) blocks.push({ user: who.id, login: who.login, timestamp, ttl });
    else if (kind === 'uri') blocks.push({ uri: faker.helpers.arrayElement(URIS), timestamp, ttl });
    else blocks.push({ ip: faker.helpers.arrayElement(ips), timestamp, ttl });
  }
  return blocks;
}
