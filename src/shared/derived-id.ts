import { createHash } from 'node:crypto';

/**
 * A stable id of ObjectId shape (24 lowercase hex) for something known only by a name, such
 * as a trap sender's address, an MQTT client id or a user's login: the same name always maps
 * to the same id, across restarts, without a registry.
 */
export function derivedObjectId(namespace: string, key: string): string {
  return createHash('sha256').update(`${namespace}\u0000${key}`).digest('hex').slice(0, 24);
}
