import { citeOperation } from '../citations.js';
import { schemeOf } from '../client/auth-schemes.js';
import { judgeRefusal } from './refusal.js';
import { defineCheck } from './define.js';

/**
 * Valid credentials of a scheme the operation does not declare, sent alone, are refused with 401:
 * 4.1 authenticates with Basic only, so a session cookie or a token must not create tokens.
 */
export const undeclaredSchemeRefused = defineCheck({
  name: 'undeclared-scheme-refused',
  title: 'Credentials of a scheme the operation does not declare are refused (401)',
  judgesUnreadBody: true,
  run(exchange, context) {
    const op = context.spec.operation(exchange.operationId);
    const declared = [...new Set(op.security.flatMap((alternative) => Object.keys(alternative)))].join(', ');
    return judgeRefusal(this, exchange, op, {
      status: 401,
      acceptedCitation: citeOperation(op, `The call is authenticated by ${declared} only.`),
      what: `a request with valid ${schemeOf(exchange.auth) ?? exchange.auth} credentials alone (the operation declares ${declared})`,
      unknownTarget: true,
    });
  },
});
