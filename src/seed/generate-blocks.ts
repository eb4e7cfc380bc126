import type { BlockedRequest, User } from '../spec/types.js';
import { checkWindow, DEFAULT_END_TIME, DEFAULT_SEED, DEFAULT_SPAN_MS, englishFaker, spreadTimestamps, type GenerateEventsOptions } from './generate-events.js';

export const DEFAULT_BLOCK_COUNT = 40;

/** A user the block log may name. */
export type BlockedUser = Pick<User, 'id' | 'login'>;

/** The window of the event generator's options (`count` default DEFAULT_BLOCK_COUNT). */
export interface GenerateBlocksOptions extends GenerateEventsOptions {
  /** The users that blocks by login or user name (the fake's users); none: blocks by IP address and URI only. */
  readonly users?: readonly BlockedUser[];
}

/** The API paths that clients hammer, and so get blocked on. */
const URIS = ['/node/api/users/session', '/node/api/event-log', '/node/api/users/current', '/node/api/limit-block-log'];
const KINDS = [{ weight: 4, value: 'ip' }, { weight: 2, value: 'login' }, { weight: 2, value: 'user' }, { weight: 2, value: 'uri' }] as const;
const TTLS = [{ weight: 5, value: 60 }, { weight: 3, value: 300 }, { weight: 2, value: 900 }, { weight: 1, value: 3600 }];

/**
 * Deterministic historic blocked-request records in timestamp order: blocks by IP address,
 * by login (with the user id, on the log-in path), by user id and by URI. Logins and user ids
 * are those of the users given, so a block names a user that exists.
 */
export function generateBlocks(options: GenerateBlocksOptions = {}): BlockedRequest[] {
  const { seed = DEFAULT_SEED, count = DEFAULT_BLOCK_COUNT, endTime = DEFAULT_END_TIME, spanMs = DEFAULT_SPAN_MS } = options;
  checkWindow({ seed, count, endTime, spanMs });
  // Its own stream, so the block log does not change when the event generator draws differently.
  const faker = englishFaker(seed + 1);
  const users = (options.users ?? []).map(({ id, login }) => ({ login, user: id }));
  const ips = [
    ...Array.from({ length: 5 }, () => faker.internet.ipv4({ cidrBlock: '198.51.100.0/24' })),
    ...Array.from({ length: 5 }, () => faker.internet.ipv4({ cidrBlock: '203.0.113.0/24' })),
  ];
  const times = spreadTimestamps(faker, count, endTime, spanMs);
  const blocks: BlockedRequest[] = [];
  for (let i = 0; i < count; i++) {
    const timestamp = times[i] as number;
    const ttl = faker.helpers.weightedArrayElement(TTLS);
    const kind = faker.helpers.weightedArrayElement(users.length > 0 ? KINDS : KINDS.filter((k) => k.value === 'ip' || k.value === 'uri'));
    const who = users.length > 0 ? faker.helpers.arrayElement(users) : { login: '', user: '' };
    const blocked =
      kind === 'ip' ? { ip: faker.helpers.arrayElement(ips) }
      : kind === 'login' ? { login: who.login, user: who.user, uri: URIS[0] }
      : kind === 'user' ? { user: who.user, login: who.login }
      : { uri: faker.helpers.arrayElement(URIS) };
    blocks.push({ ...blocked, timestamp, ttl });
  }
  return blocks;
}
