import type { IngestCounts } from '../../../spec/control-types.js';
import type { ControlHandlerMap } from '../types.js';

export const ingestControlHandlers: ControlHandlerMap = {
  getIngestCounts: (_request, _reply, { ingest }): IngestCounts => ingest.read(),
};
