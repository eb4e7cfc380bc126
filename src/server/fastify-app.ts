import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import { connectionOptions, type ConnectionLimits } from './connection-limits.js';
import type { EarlyAnswers } from './answer-hook.js';
import { BODY_LIMIT_BYTES, sendApiError, toApiError } from './error-mapping.js';
import type { ErrorMessage } from './error-messages.js';
import type { Logging } from './logging.js';
import { createClientErrorHandler, installTransportRefusals } from './transport-errors.js';

// The fake's Fastify instance before any hook or route: its connections' limits, its logging,
// and the errors of the transport and of Fastify itself answered in the document's shape.

export function createFastifyApp(connections: ConnectionLimits, logging: Logging, earlyAnswers: EarlyAnswers, errors: ErrorFactory, messages: ErrorMessage) {
  const app = Fastify({
    ...connectionOptions(connections),
    clientErrorHandler: createClientErrorHandler(errors, messages, earlyAnswers.answered),
    ...logging.fastifyOptions,
    bodyLimit: BODY_LIMIT_BYTES,
    // The document lists no HEAD operations; HEAD gets 405 like any other undocumented method.
    exposeHeadRoutes: false,
    frameworkErrors: (error, request, reply) => {
      void sendApiError(reply as unknown as FastifyReply, toApiError(error, request as unknown as FastifyRequest, errors, messages));
    },
  });
  logging.attach(app);
  app.server.maxConnections = connections.maxConnections;
  installTransportRefusals(app.server, errors, messages);
  return app;
}
