import { readFile } from 'node:fs/promises';
import { bundle as bundleRefs } from '@apidevtools/json-schema-ref-parser';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_SCHEMA, load } from 'js-yaml';

export const DOCS_PREFIX = '/docs';
export const CONTROL_DOCS_PREFIX = '/docs/control';

const documents = new Map<string, Promise<Record<string, unknown>>>();

/** A document as written (its `$ref`s kept), read once per path; bundled when it refers to other files. */
function readDocument(path: string, bundle: boolean): Promise<Record<string, unknown>> {
  const key = `${bundle}:${path}`;
  let document = documents.get(key);
  if (!document) {
    document = bundle
      ? (bundleRefs(path) as Promise<unknown> as Promise<Record<string, unknown>>)
      : readFile(path, 'utf8').then((text) => load(text, { schema: JSON_SCHEMA }) as Record<string, unknown>);
    documents.set(key, document);
  }
  return document.then((d) => structuredClone(d));
}

/** The document as served: unchanged, except that its one server is the fake that serves it. */
function pointedAtThisFake(document: Record<string, unknown>, request: FastifyRequest): Record<string, unknown> {
  const origin = `${request.protocol}://${request.host}`;
  return { ...document, servers: [{ url: origin, description: 'This fake (the server of these docs).' }] };
}

async function registerDocsPage(app: FastifyInstance, routePrefix: string, document: Record<string, unknown>): Promise<void> {
  // Each page in its own plugin scope: @fastify/swagger decorates the scope it is registered in.
  await app.register(async (scope) => {
    await scope.register(swagger, { mode: 'static', specification: { document: document as never } });
    await scope.register(swaggerUi, {
      routePrefix,
      // Every asset comes from the installed package: no CDN, and no online validator badge.
      validatorUrl: false,
      uiConfig: { deepLinking: true, tryItOutEnabled: true, withCredentials: true, displayRequestDuration: true },
      transformSpecification: (spec, request) => pointedAtThisFake(spec as Record<string, unknown>, request),
    });
  });
}

/**
 * Interactive docs of the monitoring API at /docs and of the control API at /docs/control,
 * served offline (Swagger UI from @fastify/swagger-ui). "Try it out" calls the fake itself.
 */
export async function registerDocs(app: FastifyInstance, sources: { readonly api: string; readonly control: string }): Promise<void> {
  const api = await readDocument(sources.api, false);
  // The control document refers to schemas of the API document; bundling makes it self-contained for the browser.
  const control = await readDocument(sources.control, true);
  await registerDocsPage(app, DOCS_PREFIX, api);
  await registerDocsPage(app, CONTROL_DOCS_PREFIX, control);
}
