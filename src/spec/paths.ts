import { fileURLToPath } from 'node:url';

// Resolved from this file so that the kit finds its own documents wherever it is installed.
// Through a name, not `new URL('…', import.meta.url)` itself: Vite rewrites that form into a
// URL of the page when it transforms the kit's sources for a page (Vitest's jsdom environment).
const here = import.meta.url;

export const packageRoot = fileURLToPath(new URL('../../', here));
export const monitoringApiPath = fileURLToPath(new URL('../../openapi/monitoring-api.yaml', here));
/** The control API of the fake (`/__control`), which references schemas of the monitoring API document. */
export const controlApiPath = fileURLToPath(new URL('../../openapi/control-api.yaml', here));
