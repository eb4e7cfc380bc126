import { createHash } from 'node:crypto';

/** A stable id of ObjectId shape for something known only by a name (a trap sender, an MQTT client id, a login): the same across restarts, without a registry. */
export function derivedObjectId(namespace: string, key: string): string {
  return createHash('sha256').update(`${namespace}\u0000${key}`).digest('hex').slice(0, 24);
}
