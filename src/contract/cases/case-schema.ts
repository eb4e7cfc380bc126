// The format of contracts/*.yaml, checked with Ajv when the files are loaded.

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const status = { type: 'integer', minimum: 100, maximum: 599 } as const;
const capture = (source: string) =>
  ({ type: 'object', required: [source], additionalProperties: false, properties: { [source]: { type: 'string' } } }) as const;

export const caseFileSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Contract cases, keyed by the operationId they are about',
  type: 'object',
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9]*$' },
  additionalProperties: { type: 'array', minItems: 1, items: { $ref: '#/$defs/case' } },
  $defs: {
    case: {
      type: 'object',
      required: ['name', 'steps'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
        description: { type: 'string' },
        requires: { type: 'array', uniqueItems: true, items: { enum: ['writes', 'low-user', 'token'] } },
        steps: { type: 'array', minItems: 1, items: { $ref: '#/$defs/step' } },
      },
    },
    step: {
      type: 'object',
      required: ['name', 'operationId', 'expect'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 },
        operationId: { type: 'string' },
        as: { enum: ['admin', 'low', 'anonymous'] },
        auth: { enum: ['none', 'basic', 'session', 'token', 'auth-token'] },
        path: stringMap,
        query: stringMap,
        headers: stringMap,
        cookies: stringMap,
        body: {},
        rawBody: { type: 'string' },
        contentType: { type: 'string' },
        expect: {
          type: 'object',
          required: ['status'],
          additionalProperties: false,
          properties: { status: { anyOf: [status, { type: 'array', minItems: 1, items: status }] }, body: {} },
        },
        capture: { type: 'object', additionalProperties: { oneOf: [capture('body'), capture('cookie'), capture('header')] } },
        cite: { type: 'string', description: 'An operationId or a document location (components/securitySchemes/apiToken) whose x-spec-section or x-gap-fill decides the verdict.' },
      },
    },
  },
} as const;

export type Requirement = 'writes' | 'low-user' | 'token';

export type Capture = { readonly body: string } | { readonly cookie: string } | { readonly header: string };

export interface CaseStep {
  readonly name: string;
  readonly operationId: string;
  readonly as?: 'admin' | 'low' | 'anonymous';
  readonly auth?: 'none' | 'basic' | 'session' | 'token' | 'auth-token';
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly cookies?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly contentType?: string;
  readonly expect: { readonly status: number | readonly number[]; readonly body?: unknown };
  readonly capture?: Readonly<Record<string, Capture>>;
  readonly cite?: string;
}

export interface ContractCase {
  /** The file it came from, for messages. */
  readonly file: string;
  /** The operation the case is about (its key in the file). */
  readonly operationId: string;
  readonly name: string;
  readonly description?: string;
  readonly requires: readonly Requirement[];
  readonly steps: readonly CaseStep[];
}

/** Variables every case may use besides its captures. */
export const BUILT_INS = ['admin.login', 'admin.password', 'admin.id', 'low.login', 'low.password', 'low.id', 'seed', 'unknownId'] as const;
