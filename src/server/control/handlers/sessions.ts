import type { Cleared, SessionSummary } from '../../../spec/control-types.js';
import type { ControlHandlerMap } from '../types.js';

/** Enough of a session id to tell sessions apart, useless as a cookie. */
export const maskSessionId = (id: string): string => `${id.slice(0, 8)}…`;

export const sessionControlHandlers: ControlHandlerMap = {
  listSessions: (_request, _reply, { state }): SessionSummary[] =>
    state.sessions.list().map((session) => ({
      maskedId: maskSessionId(session.id),
      userId: session.userId,
      login: state.users.byId(session.userId)?.login ?? '',
      createdAt: session.createdAt,
      lastUsedAt: session.lastSeen,
      expiresAt: state.sessions.expiresAt(session),
    })),

  clearSessions: (request, _reply, { state }): Cleared => {
    const { userId } = request.query as { userId?: string };
    return { cleared: state.sessions.clear(userId) };
  },
};
