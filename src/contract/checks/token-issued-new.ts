import { citeOperation } from '../citations.js';
import { answerSecrets } from '../client/marked-secrets.js';
import { describeSecret } from '../../shared/redaction/secret-names.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

/**
 * A token createAuthToken answers for user X is a new one (spec 4.1), not one the run already
 * knows as another user's: handed to X, another user's token lets X act as that user and the
 * reverse (a reused or predictable token). The owner it compares with is the one known before
 * this answer: learning never moves a token known as one user's to the user a path names
 * (credentials-seen.ts). Names both users by id and the token only masked.
 */
export const tokenIssuedNew = defineCheck({
  name: 'token-issued-new',
  title: 'A created API token is new, not another user\'s',
  operations: ['createAuthToken'],
  run(exchange, context) {
    const response = exchange.response;
    if (!response || response.status < 200 || response.status >= 300) return [];
    const op = context.spec.operation(exchange.operationId);
    // The token as the runner learns it: the value the document marks, in JSON or as bare text.
    const tokens = answerSecrets(op, response);
    const { subject } = context.credentials.parties(exchange);
    if (subject === undefined) return [];
    return tokens.flatMap((token) => {
      const owner = context.credentials.tokenOwner(token);
      if (owner === undefined || owner === subject) return [];
      return [
        failure(this, exchange, {
          message: `the token created for user ${subject} ${describeSecret(token)} is the API token of user ${owner}, which the run already knew: not a new token, and each of the two users can act as the other`,
          expected: `a new token for user ${subject}, not one another user holds`,
          citation: citeOperation(op, 'Creates a new authentication token that is usable in later requests.'),
        }),
      ];
    });
  },
});
