import { citeOperation } from '../citations.js';
import { judgeAcceptance } from './refusal.js';
import { defineCheck } from './define.js';

export interface PermissionAcceptedFacts {
  readonly login: string;
  readonly unknownTarget?: boolean;
}

/** A caller who holds the operation's permissions (x-permissions), not all permissions, is accepted. */
export const permissionAccepted = defineCheck({
  name: 'permission-accepted',
  title: 'A caller holding the permission is accepted',
  run(exchange, context, facts: PermissionAcceptedFacts) {
    const op = context.spec.operation(exchange.operationId);
    const needed = op.permissions.join(', ');
    return judgeAcceptance(this, exchange, {
      citation: citeOperation(op, `Permission: ${needed}.`),
      what: `"${facts.login}", who holds ${needed}`,
      unknownTarget: facts.unknownTarget,
    });
  },
});
