// Invalid inputs generated from the document (values out of an enum, of the wrong type, breaking
// a pattern or a length, bodies missing required fields…) get a 4xx on every operation (writes
// only when allowed).
import type { Operation, Schema } from '../../spec/index.js';
import type { Random } from '../random.js';
import { apply } from '../checks/check.js';
import { invalidInputRefused, type InvalidInputFacts } from '../checks/step-checks.js';
import type { Call } from '../client/api-client.js';
import { isSessionCall, isWrite, restoreText, type Plan, type PlanContext, type Row, sameTextUpdate } from './plan.js';

/** What is wrong (for the report), the parameter it is in, and what is sent. */
type NegativeInput = InvalidInputFacts & Pick<Call, 'query' | 'path' | 'body' | 'rawBody' | 'contentType'>;

const BREAKERS = ['-1', 'abc', '1.5', ' 7', '0x1f', '1e3', '９'];

/** Values of a parameter's schema that the schema refuses. */
export function invalidValues(schema: Schema, random: Random): { value: string; why: string }[] {
  const out: { value: string; why: string }[] = [];
  if (Array.isArray(schema.enum)) {
    let value = random.word(6);
    while (schema.enum.includes(value)) value = random.word(7);
    out.push({ value, why: `not one of ${schema.enum.join(', ')}` });
  }
  if (schema.type === 'integer') {
    out.push({ value: random.pick(['abc', '1.5', 'ten']), why: 'not an integer' });
    if (typeof schema.minimum === 'number') out.push({ value: String(schema.minimum - random.int(1, 5)), why: `below the minimum ${schema.minimum}` });
  }
  if (schema.type === 'boolean') out.push({ value: random.pick(['maybe', 'yes please', '2']), why: 'not a boolean' });
  if (typeof schema.pattern === 'string') {
    const pattern = schema.pattern;
    const candidates = BREAKERS.filter((b) => !new RegExp(pattern, 'u').test(b));
    if (candidates.length > 0) out.push({ value: random.pick(candidates), why: `does not match ${pattern}` });
  }
  if (typeof schema.maxLength === 'number') out.push({ value: 'x'.repeat(schema.maxLength + 1), why: `longer than ${schema.maxLength} characters` });
  return out;
}

function bodyVariants(schema: Schema, valid: Record<string, unknown>, random: Random): NegativeInput[] {
  const out: NegativeInput[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const name of schema.required ?? []) {
    const { [name]: _missing, ...rest } = valid;
    out.push({ what: `a body without the required field "${name}"`, body: rest });
  }
  const strings = Object.entries(properties).filter(([, s]) => s.type === 'string');
  if (strings.length > 0) {
    const [name] = random.pick(strings);
    out.push({ what: `a body whose "${name}" is a number`, body: { ...valid, [name]: random.int(1, 99999) } });
  }
  const limited = Object.entries(properties).filter(([, s]) => typeof s.maxLength === 'number');
  if (limited.length > 0) {
    const [name, s] = random.pick(limited);
    out.push({ what: `a body whose "${name}" is longer than ${s.maxLength ?? 0} characters`, body: { ...valid, [name]: 'x'.repeat((s.maxLength ?? 0) + 1) } });
  }
  if (schema.additionalProperties === false) {
    out.push({ what: 'a body with a field the document does not accept', body: { ...valid, [`unexpected_${random.word(4)}`]: true } });
  }
  out.push({ what: 'a body that is a JSON array', body: [valid] });
  out.push({ what: 'a body that is not JSON', rawBody: JSON.stringify(valid).slice(0, -1) });
  out.push({ what: 'a JSON body sent as text/plain', rawBody: JSON.stringify(valid), contentType: 'text/plain' });
  return out;
}

/**
 * The negative inputs of one operation. `valid` gives the valid path parameters and body the
 * variants start from, so that each input is wrong in one way only.
 */
export function negativeInputs(
  op: Operation,
  random: Random,
  valid: { readonly path?: Readonly<Record<string, string>>; readonly body?: Record<string, unknown> } = {},
): NegativeInput[] {
  const out: NegativeInput[] = [];
  for (const p of op.parameters) {
    if (p.in !== 'query' && p.in !== 'path') continue;
    for (const { value, why } of invalidValues(p.schema, random)) {
      const input = { what: `${p.in} parameter ${p.name}=${JSON.stringify(value.length > 20 ? `${value.slice(0, 17)}...` : value)} (${why})`, parameter: p.name };
      if (p.in === 'query') out.push({ ...input, query: { [p.name]: value } });
      else out.push({ ...input, path: { ...valid.path, [p.name]: value } });
    }
  }
  if (op.requestBody && valid.body) {
    for (const v of bodyVariants(op.requestBody.schema, valid.body, random)) out.push({ ...v, path: valid.path });
  }
  return out;
}

async function validStart(ctx: PlanContext, op: Operation): Promise<{ path?: Record<string, string>; body?: Record<string, unknown>; record?: Row }> {
  const { random } = ctx;
  if (op.operationId === 'createSession') return { body: { login: `contract-check-${random.word(8)}`, password: random.word(12) } };
  if (op.operationId === 'updateEventLogPayload') return (await sameTextUpdate(ctx)) ?? { path: { id: random.objectId() }, body: { text: 'contract-check' } };
  const path = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, random.objectId()]));
  return { path };
}

export const negativeInputsPlan: Plan = async (ctx) => {
  for (const op of ctx.spec.operations) {
    if (isWrite(op) && !isSessionCall(op) && !ctx.policy.writes) {
      ctx.skip(op.operationId, invalidInputRefused.name, `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
      continue;
    }
    const start = await validStart(ctx, op);
    const inputs = negativeInputs(op, ctx.random, start);
    // Login attempts go out as nobody, so a wrongly accepted one opens no administrator session.
    const login = op.operationId === 'createSession';
    try {
      for (const [i, { what, parameter, ...sent }] of inputs.entries()) {
        const exchange = await ctx.send(
          {
            operationId: op.operationId,
            key: `negative/${op.operationId}/${i}`,
            actor: login ? 'anonymous' : 'admin',
            auth: login ? 'none' : undefined,
            path: start.path,
            ...sent,
          },
          { checks: [apply(invalidInputRefused, { what, ...(parameter ? { parameter } : {}) })] },
        );
        if (login && exchange.response && exchange.response.status < 300) {
          await ctx.send({ operationId: 'deleteSession', key: `negative/${op.operationId}/${i}/logout`, actor: 'anonymous', auth: 'session' });
        }
      }
    } finally {
      if (start.record) await restoreText(ctx, start.record, `negative/${op.operationId}/restore`);
    }
  }
};
