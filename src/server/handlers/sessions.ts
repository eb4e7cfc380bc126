import type { SessionCredentials } from '../../spec/types.js';
import { requireCaller } from '../auth/caller.js';
import { setCookies } from '../cookies.js';
import type { HandlerMap } from './types.js';

const COOKIE = { path: '/', sameSite: 'lax' } as const;

export const sessionHandlers: HandlerMap = {
  createSession: (request, reply, { state, errors, messages, cookies, sessionHosts }) => {
    const { login, password } = request.body as SessionCredentials;
    const user = state.users.verify(login, password);
    if (!user) throw errors('UNAUTHENTICATED', messages('UNAUTHENTICATED', 'loginWrong'));
    const session = state.sessions.create(user.id);
    sessionHosts?.created(session.id, request);
    setCookies(reply, [
      { name: cookies.session, value: session.id, options: { ...COOKIE, httpOnly: true } },
      // Readable by the page, which sends it back in x-csrf-token.
      { name: cookies.csrf, value: session.csrf, options: COOKIE },
    ]);
    return session.id;
  },

  deleteSession: (request, reply, context) => {
    const { state, cookies } = context;
    const { session } = requireCaller(request, context);
    if (session) state.sessions.delete(session.id);
    setCookies(reply, [
      { name: cookies.session, options: COOKIE },
      { name: cookies.csrf, options: COOKIE },
    ]);
  },
};
