import { markedValues, schemaMarks, type SpecValidator } from '../../spec/index.js';
import { isSchemaNode, type SchemaNode } from '../../spec/schema-branches.js';
import { LOG_MASK as CENSOR } from '../../shared/redaction/secret-names.js';

/** The document's mark of a credential, on a schema or a property. */
const SECRET = 'x-secret';
// Deeper than any answer of this API: a value nested further under a schema is masked whole.
const MAX_DEPTH = 32;

type Container = Record<string | number, unknown>;

/** A copy of the value with each marked place, and each place too deep to judge, reading `[redacted]`. */
function masked(value: unknown, schema: SchemaNode): unknown {
  let copy: unknown;
  for (const { path } of markedValues(value, schema, { mark: SECRET, maxDepth: MAX_DEPTH })) {
    if (path.length === 0) return CENSOR;
    // A parsed JSON body: the copy has every place the walk found in it.
    copy ??= structuredClone(value);
    let parent = copy as Container;
    for (const key of path.slice(0, -1)) parent = parent[key] as Container;
    parent[path.at(-1)!] = CENSOR;
  }
  return copy ?? value;
}

/** Masks the values of an operation's answers that the document marks `x-secret`, walking the answer's schema with the value. */
export interface SecretMask {
  /** Whether the answer of this operation and status may hold a secret: a body that cannot be read as JSON is then not shown. */
  holdsSecrets(operationId: string | undefined, status: number): boolean;
  /** The value with every marked value reading `[redacted]`, as the logs mask secrets. */
  mask(operationId: string | undefined, status: number, value: unknown): unknown;
}

export function createSecretMask(validator: SpecValidator): SecretMask {
  const schemaOf = (operationId: string | undefined, status: number): SchemaNode | undefined => {
    if (operationId === undefined) return undefined;
    const schema = validator.responseFor(operationId, status)?.content?.['application/json']?.schema;
    return isSchemaNode(schema) ? schema : undefined;
  };
  return {
    holdsSecrets(operationId, status) {
      const schema = schemaOf(operationId, status);
      return schema !== undefined && schemaMarks(schema, SECRET);
    },
    mask(operationId, status, value) {
      const schema = schemaOf(operationId, status);
      // Answers whose schema marks no secret, the most, are shown as they are, unwalked.
      return schema !== undefined ? masked(value, schema) : value;
    },
  };
}
