import fc from 'fast-check';
import type { Schema } from '../../../src/spec/index.js';

type AnySchema = Schema & Record<string, unknown>;

/**
 * Values that a schema of the document accepts, for the kinds of schema the document uses:
 * enum/const, string (pattern, format uuid, lengths), integer, number, boolean, object and
 * array, oneOf/anyOf. Anything else is any JSON value.
 */
export function validValue(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const s = (schema ?? {}) as AnySchema;
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  const alternatives = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (alternatives && !s.type) return fc.oneof(...alternatives.map(validValue));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string': {
      if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern));
      if (s.format === 'uuid') return fc.uuid();
      return fc.string({ minLength: (s.minLength as number) ?? 0, maxLength: Math.min((s.maxLength as number) ?? 50, 50) });
    }
    case 'integer':
      return fc.integer({ min: (s.minimum as number) ?? -1_000_000, max: (s.maximum as number) ?? 2_000_000_000_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(s.items as Schema | undefined), { maxLength: 3 });
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const required = (s.required ?? []) as string[];
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, validValue(v)])),
        { requiredKeys: required.filter((k) => k in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The text form of a value for a query, path or header parameter. */
export const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');
