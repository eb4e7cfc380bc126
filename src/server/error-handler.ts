import type { FastifyInstance } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import { sendApiError, toApiError } from './error-mapping.js';
import { drainRefusedBody } from './refused-body.js';
import { ScriptedAnswer, type ScriptedAnswers } from './scripted-answer.js';

/**
 * The server's error handler: a scripted answer (an injected fault) is played; any other error
 * becomes the document's Error body of its status. Only an error the fake did not expect is
 * logged (with its stack), and a body too large is drained first, so that the client reads the
 * 413 instead of a reset connection.
 */
export function setApiErrorHandler(app: FastifyInstance, scripted: ScriptedAnswers, errors: ErrorFactory, messages: ErrorMessage): void {
  // Not async: a refusal (a flood of 429s) is answered at once, without a promise that resolves to the reply.
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ScriptedAnswer) return scripted.play(reply, error);
    const apiError = toApiError(error, request, errors, messages);
    if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    if (apiError.code === 'PAYLOAD_TOO_LARGE') return drainRefusedBody(request).then(() => sendApiError(reply, apiError));
    sendApiError(reply, apiError);
  });
}
