import { citeAuthentication, judgeRefusal } from './refusal.js';
import { defineCheck } from './define.js';

/** Wrong credentials of each method (password, session cookie, token) are refused with 401. */
export const wrongCredentialsRefused = defineCheck({
  name: 'wrong-credentials-refused',
  title: 'Wrong credentials are refused (401)',
  judgesUnreadBody: true,
  run(exchange, context) {
    const op = context.spec.operation(exchange.operationId);
    if (op.security.length === 0) return [];
    const method = exchange.auth.replace(/^wrong-/, '');
    return judgeRefusal(this, exchange, op, { status: 401, acceptedCitation: citeAuthentication(op), what: `a request with a wrong ${method}` });
  },
});
