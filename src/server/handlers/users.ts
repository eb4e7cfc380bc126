import type { User } from '../../spec/types.js';
import type { FakeState } from '../../store/state.js';
import type { StoredUser } from '../../store/users.js';
import { requireCaller } from '../auth/caller.js';
import type { HandlerMap } from './types.js';

/** A user's record as the API shows it: never a password; the token only when one exists. */
export function userRecord(state: FakeState, user: StoredUser): User {
  const token = state.tokens.tokenOf(user.id);
  return token === undefined ? { ...user.record } : { ...user.record, authenticationToken: token };
}

export const userHandlers: HandlerMap = {
  getCurrentUser: (request, _reply, { state, errors }) => userRecord(state, requireCaller(request, errors).user),
};
