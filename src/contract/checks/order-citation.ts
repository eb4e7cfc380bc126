// Where the order of a list is decided: the sortField gap-fill (ties, default field) of the
// event log, or the gap-fill of an operation that shows no order at all (4.6).
import type { Operation } from '../../spec/index.js';
import { citeOperation, citeParameter, gapFill } from '../citations.js';
import type { Citation } from '../types.js';

export function citeOrder(op: Operation): Citation {
  if (op.parameters.some((p) => p.name === 'sortField')) return citeParameter(op, 'sortField');
  return op.gapFill ? gapFill(op.operationId, op.gapFill) : citeOperation(op);
}
