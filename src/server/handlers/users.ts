import type { User } from '../../spec/types.js';
import { deepFreeze } from '../../shared/deep-freeze.js';
import type { FakeState } from '../../store/state.js';
import type { StoredUser } from '../../store/accounts.js';
import { requireCaller } from '../auth/caller.js';
import type { HandlerMap } from './types.js';

// The record last shown per user. Deep-frozen, so its JSON text is written once and reused
// (json-text.ts) until the user's token changes.
const shown = new WeakMap<StoredUser, User>();

/** A user's record as the API shows it: never a password; the token only when one exists. */
export function userRecord(state: FakeState, user: StoredUser): User {
  const token = state.tokens.tokenOf(user.id);
  const last = shown.get(user);
  if (last && last.authenticationToken === token) return last;
  const record = deepFreeze(token === undefined ? { ...user.record } : { ...user.record, authenticationToken: token });
  shown.set(user, record);
  return record;
}

export const userHandlers: HandlerMap = {
  getCurrentUser: (request, _reply, context) => userRecord(context.state, requireCaller(request, context).user),
};
