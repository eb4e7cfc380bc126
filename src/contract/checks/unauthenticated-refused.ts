import { citeAuthentication, judgeRefusal } from './refusal.js';
import { defineCheck } from './define.js';

/** A request without credentials is refused with 401. */
export const unauthenticatedRefused = defineCheck({
  name: 'unauthenticated-refused',
  title: 'A request without credentials is refused (401)',
  judgesUnreadBody: true,
  run(exchange, context, facts: { readonly unknownTarget?: boolean }) {
    const op = context.spec.operation(exchange.operationId);
    if (op.security.length === 0) return [];
    return judgeRefusal(this, exchange, op, { status: 401, acceptedCitation: citeAuthentication(op), what: 'a request without credentials', unknownTarget: facts.unknownTarget });
  },
});
