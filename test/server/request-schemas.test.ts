import type { FastifySchema } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createRequestValidators, requestSchemas } from '../../src/server/routes.js';
import { createErrorFactory } from '../../src/errors.js';
import { createErrorMessages } from '../../src/server/error-answers.js';
import { createValidationRefusal } from '../../src/server/error-answers.js';
import { controlApiPath, loadSpec, type Spec } from '../../src/spec/index.js';
import { spec } from './helpers.js';

const control = await loadSpec(controlApiPath);
type Compiled = (data: unknown) => unknown;
const refusal = createValidationRefusal(createErrorFactory(spec.document), createErrorMessages(spec.document), 10);

/** Every validator of every operation, as Fastify would get them. */
function validatorsOf(document: Spec): { name: string; validate: Compiled }[] {
  const compilerFor = createRequestValidators(document, refusal, 20);
  return document.operations.flatMap((operation) =>
    Object.entries(requestSchemas(operation)).map(([httpPart, schema]) => ({
      name: `${operation.operationId} ${httpPart}`,
      validate: compilerFor(operation)({ schema: schema as FastifySchema, httpPart, method: operation.method, url: operation.path }) as Compiled,
    })),
  );
}

describe('request validators of the kit\'s documents', () => {
  // They are compiled on first use: this compiles each one, so a schema Ajv cannot compile fails here, not in a request.
  it('compile for every operation of both documents, and validate', () => {
    const all = [...validatorsOf(spec), ...validatorsOf(control)];
    expect(all.length).toBeGreaterThan(10);
    for (const { name, validate } of all) {
      expect(() => validate({}), name).not.toThrow();
    }
  });
});
