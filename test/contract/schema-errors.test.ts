// Which schema errors a finding names: the branch of a failing anyOf or oneOf the value meant,
// judged in time that grows with the number of errors (a list of wrong records has a combinator
// error per record, and the errors of every branch of each).
import { describe, expect, it } from 'vitest';
import { relevantErrors } from '../../src/contract/checks/response-schema.js';
import type { SchemaError } from '../../src/spec/index.js';

const error = (keyword: string, schemaPath: string, instancePath: string): SchemaError => ({ keyword, schemaPath, instancePath, message: keyword, params: {} });

/** The errors of record i of a list whose items are `anyOf` two branches: one wrong field in branch 0, two in branch 1. */
const wrongRecord = (i: number): SchemaError[] => [
  error('type', '#/items/anyOf/0/properties/a/type', `/${i}/a`),
  error('required', '#/items/anyOf/1/required', `/${i}`),
  error('type', '#/items/anyOf/1/properties/b/type', `/${i}/b`),
  error('anyOf', '#/items/anyOf', `/${i}`),
];

describe('relevantErrors', () => {
  it("keeps the branch of each record's anyOf with the fewest errors, and of a oneOf the branch the discriminator names", () => {
    const errors = [...wrongRecord(0), ...wrongRecord(1), error('if', '#/if', '')];
    expect(relevantErrors({}, errors, [{}, {}]).map((e) => `${e.instancePath} ${e.schemaPath}`)).toEqual(['/0/a #/items/anyOf/0/properties/a/type', '/1/a #/items/anyOf/0/properties/a/type']);
    const root = { oneOf: [{ properties: { kind: { const: 'x' } } }, { properties: { kind: { const: 'y' } } }], discriminator: { propertyName: 'kind' } };
    const oneOf = [error('type', '#/oneOf/0/properties/a/type', '/a'), error('const', '#/oneOf/1/properties/kind/const', '/kind'), error('type', '#/oneOf/1/properties/b/type', '/b'), error('oneOf', '#/oneOf', '')];
    // The discriminator names branch 1, though branch 0 has fewer errors.
    expect(relevantErrors(root, oneOf, { kind: 'y' }).map((e) => e.schemaPath)).toEqual(['#/oneOf/1/properties/kind/const', '#/oneOf/1/properties/b/type']);
  });

  it('judges the 20,000 errors of 5,000 wrong records without comparing each with each', () => {
    const errors = Array.from({ length: 5_000 }, (_, i) => wrongRecord(i)).flat();
    const started = performance.now();
    const kept = relevantErrors({}, errors, []);
    const elapsed = performance.now() - started;
    expect(kept).toHaveLength(5_000);
    // Comparing every error with every combinator (20,000 × 5,000) took about ten seconds here; looked up, a fifth of one
    // (the bound leaves room for a loaded machine).
    expect(elapsed).toBeLessThan(5_000);
  });
});
