import { fileURLToPath } from 'node:url';

// Resolved from this file so that the kit finds its own documents wherever it is installed.
const root = fileURLToPath(new URL('../../', import.meta.url));

export const packageRoot = root;
export const monitoringApiPath = fileURLToPath(new URL('../../openapi/monitoring-api.yaml', import.meta.url));
/** The control API of the fake (`/__control`), which references schemas of the monitoring API document. */
export const controlApiPath = fileURLToPath(new URL('../../openapi/control-api.yaml', import.meta.url));
