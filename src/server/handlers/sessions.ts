import type { SessionCredentials } from '../../spec/types.js';
import { requireCaller } from '../auth/caller.js';
import type { HandlerMap } from './types.js';

const COOKIE = { path: '/', sameSite: 'lax' } as const;

export const sessionHandlers: HandlerMap = {
  createSession: (request, reply, { state, errors, cookies, sessionHosts }) => {
    const { login, password } = request.body as SessionCredentials;
    const user = state.users.verify(login, password);
    if (!user) throw errors('UNAUTHENTICATED', 'The login or password is wrong.');
    const session = state.sessions.create(user.id);
    sessionHosts?.created(session.id, request);
    reply.setCookie(cookies.session, session.id, { ...COOKIE, httpOnly: true });
    // Readable by the page, which sends it back in x-csrf-token.
    reply.setCookie(cookies.csrf, session.csrf, COOKIE);
    return session.id;
  },

  deleteSession: (request, reply, { state, errors, cookies }) => {
    const { session } = requireCaller(request, errors);
    if (session) state.sessions.delete(session.id);
    reply.clearCookie(cookies.session, COOKIE);
    reply.clearCookie(cookies.csrf, COOKIE);
  },
};
