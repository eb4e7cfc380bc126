import { citeOperation } from '../citations.js';
import { judgeRefusal } from './refusal.js';
import { defineCheck } from './define.js';

/** A caller without the operation's permission (x-permissions) is refused with 403. */
export const permissionRefused = defineCheck({
  name: 'permission-refused',
  title: 'A caller without the permission is refused (403)',
  judgesUnreadBody: true,
  run(exchange, context, facts: { readonly login: string; readonly unknownTarget?: boolean }) {
    const op = context.spec.operation(exchange.operationId);
    if (op.permissions.length === 0) return [];
    const needed = op.permissions.join(', ');
    return judgeRefusal(this, exchange, op, {
      status: 403,
      acceptedCitation: citeOperation(op, `Permission: ${needed}.`),
      what: `"${facts.login}", who lacks ${needed},`,
      unknownTarget: facts.unknownTarget,
    });
  },
});
