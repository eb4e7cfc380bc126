import { describe, expect, it } from 'vitest';
import { negativeInputs } from '../../src/contract/plans/negative-inputs.js';
import { createRandom } from '../../src/contract/random.js';
import { specAndValidator } from './helpers/synthetic.js';

describe('negative inputs from the document', () => {
  it('breaks each query parameter of the event log in the ways its schema allows', async () => {
    const { spec, validator } = await specAndValidator();
    const op = spec.operation('getEventLog');
    const inputs = negativeInputs(op, createRandom(1, 'x'));
    const byParameter = (name: string) => inputs.filter((i) => i.parameter === name);
    expect(byParameter('type').length).toBeGreaterThan(0);
    expect(byParameter('sortDirection').length).toBeGreaterThan(0);
    expect(byParameter('limit').length).toBeGreaterThanOrEqual(1);
    expect(byParameter('from')[0]?.what).toMatch(/not an integer/);
    expect(byParameter('inverse')[0]?.what).toMatch(/not a boolean/);
    // Every generated value is refused by the parameter's own schema.
    for (const input of inputs) {
      const param = op.parameters.find((p) => p.name === input.parameter);
      const value = input.query?.[input.parameter ?? ''];
      if (!param || value === undefined) throw new Error(`no value for ${input.what}`);
      const asTyped = param.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      expect(validator.validate(param.schema, asTyped).length, input.what).toBeGreaterThan(0);
    }
  });

  it('derives invalid bodies from a valid one: each missing required field, wrong types, extra fields, not JSON', async () => {
    const { spec, validator } = await specAndValidator();
    const op = spec.operation('createSession');
    const valid = { login: 'contract-check-x', password: 'y' };
    expect(validator.validate(op.requestBody?.schema ?? {}, valid)).toEqual([]);
    const inputs = negativeInputs(op, createRandom(2, 'x'), { body: valid });
    expect(inputs.map((i) => i.what)).toEqual(
      expect.arrayContaining(['a body without the required field "login"', 'a body without the required field "password"', 'a body that is not JSON', 'a JSON body sent as text/plain']),
    );
    for (const input of inputs.filter((i) => i.body !== undefined)) {
      expect(validator.validate(op.requestBody?.schema ?? {}, input.body).length, input.what).toBeGreaterThan(0);
    }
  });

  it('breaks path ids and is the same for the same seed', async () => {
    const { spec } = await specAndValidator();
    const op = spec.operation('createAuthToken');
    const a = negativeInputs(op, createRandom(3, 'x'), { path: { id: '5867948233835d9661c56dc8' } });
    expect(a[0]?.path?.id).not.toMatch(/^[0-9a-f]{24}$/);
    expect(negativeInputs(op, createRandom(3, 'x'), { path: { id: '5867948233835d9661c56dc8' } })).toEqual(a);
  });
});
