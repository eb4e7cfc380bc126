import type { OpenAPIV3_1 } from 'openapi-types';
import type { Schema, Spec } from '../../src/spec/index.js';

export interface DocumentExample {
  /** Where the example stands, for failure messages. */
  readonly where: string;
  readonly schema: Schema;
  readonly value: unknown;
}

type Media = OpenAPIV3_1.MediaTypeObject;

/** Every example of a media type, parameter or header, with its schema and where it stands. */
export function examplesOf(where: string, holder: { example?: unknown; examples?: Record<string, unknown>; schema?: unknown }): DocumentExample[] {
  const found: DocumentExample[] = [];
  const schema = holder.schema as Schema;
  if (holder.example !== undefined) found.push({ where, schema, value: holder.example });
  for (const [name, ex] of Object.entries(holder.examples ?? {})) {
    found.push({ where: `${where} examples.${name}`, schema, value: (ex as OpenAPIV3_1.ExampleObject).value });
  }
  return found;
}

/**
 * All examples of a loaded document: request bodies, responses, response headers,
 * parameters and component schemas. `missing` lists the request bodies and JSON responses
 * that have none, so a test can require one everywhere.
 */
export function documentExamples(spec: Spec): { examples: DocumentExample[]; missing: string[] } {
  const examples: DocumentExample[] = [];
  const missing: string[] = [];
  const take = (where: string, holder: Media | undefined, required: boolean) => {
    if (!holder) return;
    const found = examplesOf(where, holder);
    if (required && found.length === 0) missing.push(where);
    examples.push(...found);
  };
  for (const op of spec.operations) {
    const body = op.raw.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
    take(`${op.operationId} request body`, body?.content['application/json'], true);
    for (const [status, response] of Object.entries(op.responses)) {
      take(`${op.operationId} ${status}`, response.content?.['application/json'] as Media | undefined, true);
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        take(`${op.operationId} ${status} header ${name}`, header as OpenAPIV3_1.HeaderObject, false);
      }
    }
    for (const p of op.parameters) take(`${op.operationId} parameter ${p.name}`, p, false);
  }
  for (const [name, schema] of Object.entries(spec.document.components?.schemas ?? {})) {
    const s = schema as Schema & { example?: unknown };
    if (s.example !== undefined) examples.push({ where: `schema ${name}`, schema: s, value: s.example });
  }
  return { examples, missing };
}

/** The example error bodies of every 4xx/5xx response, with the status they are documented under. */
export function errorExamples(spec: Spec): { where: string; status: number; body: { status: number; code: string } }[] {
  const found: { where: string; status: number; body: { status: number; code: string } }[] = [];
  for (const op of spec.operations) {
    for (const [status, response] of Object.entries(op.responses)) {
      const media = response.content?.['application/json'] as Media | undefined;
      if (!/^[45]/.test(status) || !media) continue;
      for (const { where, value } of examplesOf(`${op.operationId} ${status}`, media)) {
        found.push({ where, status: Number(status), body: value as { status: number; code: string } });
      }
    }
  }
  return found;
}
