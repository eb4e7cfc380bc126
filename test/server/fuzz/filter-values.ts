import fc from 'fast-check';
import { catastrophicRegexes, hostileText } from './hostile-values.js';

/** Field paths of event log records (document schemas), plus some that no record has. */
const FIELDS = [
  '_id', 'type', 'agentId', 'timestamp', 'payload.text', 'payload.trapOid', 'payload.senderAddress', 'payload.bindings',
  'payload.bindings.oid', 'payload.topic', 'payload.qos', 'entity.entityName', 'entity.entityType', 'nothing.here',
  '__proto__', 'constructor.prototype', 'a..b', '', '$where',
];
/** The operators of the `filter` gap-fill, and some it refuses. */
const OPERATORS = [
  '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options', '$not', '$all', '$elemMatch', '$size',
  '$where', '$expr', '$function', '$accumulator', '$text', '$mod', '$type', '$jsonSchema',
];

const scalar = fc.oneof(fc.jsonValue({ maxDepth: 1 }), hostileText, fc.constantFrom('snmp-trap', 'mqtt-message', '1.3.6.1.6.3.1.1.5.3'));

const condition: fc.Arbitrary<unknown> = fc.oneof(
  scalar,
  fc.dictionary(fc.constantFrom(...OPERATORS), fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.constantFrom(...catastrophicRegexes)), {
    minKeys: 1,
    maxKeys: 2,
  }),
  fc.record({ $regex: fc.oneof(fc.constantFrom(...catastrophicRegexes), fc.string({ maxLength: 30 })), $options: fc.constantFrom('', 'i', 'm', 's', 'x', 'g', 'iu', 'zz') }, { requiredKeys: ['$regex'] }),
);

const query: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ q: Record<string, unknown> }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.dictionary(fc.constantFrom(...FIELDS), condition, { minKeys: 1, maxKeys: 3 }),
    fc.dictionary(fc.constantFrom('$and', '$or', '$nor'), fc.array(tie('q'), { minLength: 0, maxLength: 3 }), { minKeys: 1, maxKeys: 1 }),
  ),
})).q;

/** Deep nesting: `{"$and":[{"$and":[...]}]}` or plain nested objects, up to 1,500 levels. */
const deep = fc.tuple(fc.integer({ min: 21, max: 1_500 }), fc.boolean()).map(([depth, logical]) =>
  logical ? '{"$and":['.repeat(depth) + '{"type":"snmp-trap"}' + ']}'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
);

/** Text for the `filter` query parameter: MongoDB-style queries, good and bad, and non-JSON. */
export const filterText: fc.Arbitrary<string> = fc.oneof(
  query.map((q) => JSON.stringify(q)),
  deep,
  fc.constantFrom(...catastrophicRegexes).map((r) => JSON.stringify({ 'payload.text': { $regex: r } })),
  fc.json({ maxDepth: 3 }),
  hostileText,
  fc.constantFrom('{', '{"type":', '{"$where":"sleep(1000)"}', '{"payload.text":{"$regex":"(a+)+$"}}', '[]', 'null', '"x"', '{"a":1,"a":2}'),
);
