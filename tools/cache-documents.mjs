// Build step (after tsc): the kit's two OpenAPI documents parsed once into dist/documents/,
// which loading reads instead of parsing the YAML (src/spec/document-cache.ts).
import { writeDocumentCache } from '../dist/spec/document-cache.js';
import { controlApiPath, monitoringApiPath } from '../dist/spec/paths.js';

const files = [monitoringApiPath, controlApiPath];
const written = writeDocumentCache(files);
if (written.length !== files.length) throw new Error(`documents not cached: only ${written.join(', ')}`);
