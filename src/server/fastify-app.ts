import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import { connectionOptions, type ConnectionLimits } from './connection-limits.js';
import type { EarlyAnswers } from './answer-hook.js';
import { BODY_LIMIT_BYTES, sendApiError, toApiError } from './error-mapping.js';
import type { ErrorMessage } from './error-messages.js';
import { loggerSettings } from './logger.js';
import type { FakeLoggerOptions } from './options.js';
import { createClientErrorHandler, installTransportRefusals } from './transport-errors.js';

// The fake's Fastify instance before any hook or route: its connections' limits, its logging,
// and the errors of the transport and of Fastify itself answered in the document's shape.

export function createFastifyApp(connections: ConnectionLimits, logger: false | FakeLoggerOptions, earlyAnswers: EarlyAnswers, errors: ErrorFactory, messages: ErrorMessage) {
  const app = Fastify({
    ...connectionOptions(connections),
    clientErrorHandler: createClientErrorHandler(errors, messages, earlyAnswers.answered),
    ...loggerSettings(logger),
    bodyLimit: BODY_LIMIT_BYTES,
    // The document lists no HEAD operations; HEAD gets 405 like any other undocumented method.
    exposeHeadRoutes: false,
    frameworkErrors: (error, request, reply) => {
      void sendApiError(reply as unknown as FastifyReply, toApiError(error, request as unknown as FastifyRequest, errors, messages));
    },
  });
  app.server.maxConnections = connections.maxConnections;
  installTransportRefusals(app.server, errors, messages);
  return app;
}
