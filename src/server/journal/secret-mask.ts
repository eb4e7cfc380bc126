import type { SpecValidator } from '../../spec/index.js';
import { CENSOR } from '../logging.js';

type Schema = Record<string, unknown>;

/** The document's mark of a credential, on a schema or a property. */
const SECRET = 'x-secret';
// Deeper than any answer of this API: a value nested further under a schema is masked whole.
const MAX_DEPTH = 32;

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The schemas a value must match: the schemas and their allOf, anyOf and oneOf branches (any may mark a secret). */
function branchesOf(schemas: readonly Schema[]): Schema[] {
  const found: Schema[] = [];
  const add = (schema: Schema, depth: number): void => {
    found.push(schema);
    if (depth >= MAX_DEPTH) return;
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = schema[key];
      if (Array.isArray(list)) for (const branch of list) if (isSchema(branch)) add(branch, depth + 1);
    }
  };
  for (const schema of schemas) add(schema, 0);
  return found;
}

/** Whether a secret is marked anywhere in the schema (the document is dereferenced and may be cyclic). */
function marksSecret(schema: unknown, seen = new Set<unknown>()): boolean {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  if ((schema as Schema)[SECRET] === true) return true;
  return Object.values(schema as Schema).some((value) => marksSecret(value, seen));
}

function masked(value: unknown, schemas: readonly Schema[], depth: number): unknown {
  if (schemas.length === 0) return value;
  const branches = branchesOf(schemas);
  if (branches.some((s) => s[SECRET] === true)) return CENSOR;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return CENSOR;
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const itemSchemas = branches.flatMap((s) => {
        const prefix = Array.isArray(s.prefixItems) ? s.prefixItems[i] : undefined;
        const schema = prefix ?? s.items;
        return isSchema(schema) ? [schema] : [];
      });
      return masked(item, itemSchemas, depth + 1);
    });
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      const fieldSchemas = branches.flatMap((s) => {
        const properties = isSchema(s.properties) ? s.properties : {};
        const schema = Object.hasOwn(properties, key) ? properties[key] : s.additionalProperties;
        return isSchema(schema) ? [schema] : [];
      });
      return [key, masked(field, fieldSchemas, depth + 1)];
    }),
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
    return isSchema(schema) ? schema : undefined;
  };
  // Answers whose schema marks no secret, the most, are shown as they are; per schema, once.
  const secretSchemas = new WeakMap<Schema, boolean>();
  const holdsSecrets = (schema: Schema): boolean => {
    let holds = secretSchemas.get(schema);
    if (holds === undefined) secretSchemas.set(schema, (holds = marksSecret(schema)));
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
