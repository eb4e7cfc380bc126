import type { HandlerContext, HandlerMap } from './types.js';

function targetUser(params: unknown, { state, errors, messages }: HandlerContext) {
  const { id } = params as { id: string };
  const user = state.users.byId(id);
  if (!user) throw errors('NOT_FOUND', messages('NOT_FOUND', 'user', { id }));
  return user;
}

export const tokenHandlers: HandlerMap = {
  createAuthToken: (request, _reply, context) => context.state.tokens.issue(targetUser(request.params, context).id),

  revokeAuthToken: (request, _reply, context) => {
    context.state.tokens.revoke(targetUser(request.params, context).id);
  },
};
