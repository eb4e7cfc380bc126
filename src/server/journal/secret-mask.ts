import type { SpecValidator } from '../../spec/index.js';
import { isSchemaNode, itemSchema, marksAnywhere, propertySchema, schemaBranches } from '../../spec/schema-branches.js';
import { CENSOR } from '../logging.js';

type Schema = Record<string, unknown>;

/** The document's mark of a credential, on a schema or a property. */
const SECRET = 'x-secret';
// Deeper than any answer of this API: a value nested further under a schema is masked whole.
const MAX_DEPTH = 32;

function masked(value: unknown, schemas: readonly Schema[], depth: number): unknown {
  if (schemas.length === 0) return value;
  const branches = schemaBranches(schemas, MAX_DEPTH);
  if (branches.some((s) => s[SECRET] === true)) return CENSOR;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return CENSOR;
  if (Array.isArray(value)) {
    return value.map((item, i) => masked(item, branches.flatMap<Schema>((s) => itemSchema(s, i) ?? []), depth + 1));
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, masked(field, branches.flatMap<Schema>((s) => propertySchema(s, key) ?? []), depth + 1)]),
  );
}

/** Masks the values of an operation's answers that the document marks `x-secret`, walking the answer's schema with the value. */
export interface SecretMask {
  /** Whether the answer of this operation and status may hold a secret: a body that cannot be read as JSON is then not shown. */
  holdsSecrets(operationId: string | undefined, status: number): boolean;
  /** The value with every marked value reading `[redacted]`, as the logs mask secrets. */
  mask(operationId: string | undefined, status: number, value: unknown): unknown;
}

export function createSecretMask(validator: SpecValidator): SecretMask {
  const schemaOf = (operationId: string | undefined, status: number): Schema | undefined => {
    if (operationId === undefined) return undefined;
    const schema = validator.responseFor(operationId, status)?.content?.['application/json']?.schema;
    return isSchemaNode(schema) ? schema : undefined;
  };
  // Answers whose schema marks no secret, the most, are shown as they are; per schema, once.
  const secretSchemas = new WeakMap<Schema, boolean>();
  const holdsSecrets = (schema: Schema): boolean => {
    let holds = secretSchemas.get(schema);
    if (holds === undefined) secretSchemas.set(schema, (holds = marksAnywhere(schema, SECRET)));
    return holds;
  };
  return {
    holdsSecrets(operationId, status) {
      const schema = schemaOf(operationId, status);
      return schema !== undefined && holdsSecrets(schema);
    },
    mask(operationId, status, value) {
      const schema = schemaOf(operationId, status);
      return schema !== undefined && holdsSecrets(schema) ? masked(value, [schema], 0) : value;
    },
  };
}
