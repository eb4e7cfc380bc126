import { readFile } from 'node:fs/promises';
import { bundle as bundleRefs } from '@apidevtools/json-schema-ref-parser';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { JSON_SCHEMA, load } from 'js-yaml';
import type { ErrorFactory } from '../errors.js';
import { examplesShownNotFilled, withSeededLogins } from './docs-document.js';
import { createRouteNotFoundHandler, sendApiError, toApiError, type ErrorMessage } from './error-answers.js';
import { INSPECTOR_PATH } from './host-origin-guard.js';

export const DOCS_PREFIX = '/docs';
export const CONTROL_DOCS_PREFIX = '/docs/control';

/** The documents' files, and how the docs app answers errors (the API's factory and messages). */
type DocsSources = Readonly<Record<'api' | 'control', string>>;
type DocsErrors = { readonly errors: ErrorFactory; readonly messages: ErrorMessage };

/** A document as written (its `$ref`s kept); bundled when it refers to other files. */
async function readDocument(path: string, bundle: boolean): Promise<Record<string, unknown>> {
  return (bundle ? await bundleRefs(path) : load(await readFile(path, 'utf8'), { schema: JSON_SCHEMA })) as Record<string, unknown>;
}

/** Where the docs send a developer to see the requests the fake answered (the inspector's path). */
const INSPECTOR_LINK = `\n\n**This fake** lists every request it answered, live, with what was wrong with refused ones: [the request inspector](${INSPECTOR_PATH}).`;

/** The document as served: unchanged, except that its one server is the fake that serves it, and it links to the inspector. */
function pointedAtThisFake(document: Record<string, unknown>, request: FastifyRequest): Record<string, unknown> {
  const origin = `${request.protocol}://${request.host}`;
  const info = document.info as { description?: string } | undefined;
  return {
    ...document,
    info: { ...info, description: `${info?.description ?? ''}${INSPECTOR_LINK}` },
    servers: [{ url: origin, description: 'This fake (the server of these docs).' }],
  };
}

/** The seeded logins the API's docs page lists, as the start banner does: passwords only where the request may see them. */
export interface DocsLogins {
  readonly users: readonly { readonly login: string; readonly password: string; readonly permissions: readonly string[] }[];
  readonly showPasswords: (request: FastifyRequest) => boolean;
}

/** A page of a document, shown to each request as `shown` makes it. */
async function registerDocsPage(app: FastifyInstance, routePrefix: string, document: Record<string, unknown>, shown = (served: Record<string, unknown>, _request: FastifyRequest) => served): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')]);
  // Each page in its own plugin scope: @fastify/swagger decorates the scope it is registered in.
  await app.register(async (scope) => {
    await scope.register(swagger, { mode: 'static', specification: { document: document as never } });
    await scope.register(swaggerUi, {
      routePrefix,
      // Every asset comes from the installed package: no CDN, and no online validator badge.
      validatorUrl: false,
      uiConfig: { deepLinking: true, tryItOutEnabled: true, withCredentials: true, displayRequestDuration: true },
      transformSpecification: (spec, request) => shown(pointedAtThisFake(spec as Record<string, unknown>, request), request),
    });
  });
}

/** The Fastify app that serves both pages; an unknown path under /docs gets the API's 404. */
async function buildDocsApp(sources: DocsSources, { errors, messages }: DocsErrors, logins: DocsLogins): Promise<FastifyInstance> {
  const docs = Fastify({ logger: false });
  // Every page and asset with helmet's headers: a CSP of the pages' own scripts and styles, and no
  // page of any site may frame them (frame-ancestors 'none', X-Frame-Options: DENY), so a page
  // cannot overlay "Try it out" and click it. No upgrade to https: the fake serves http.
  const { default: helmet } = await import('@fastify/helmet');
  await docs.register(helmet, {
    contentSecurityPolicy: { directives: { 'frame-ancestors': ["'none'"], 'upgrade-insecure-requests': null } },
    xFrameOptions: { action: 'deny' },
  });
  const [api, control] = await Promise.all([
    readDocument(sources.api, false),
    // The control document refers to schemas of the API document; bundling makes it self-contained for the browser.
    readDocument(sources.control, true),
  ]);
  // "Try it out" fills in only `limit`: the other examples are shown, not sent (docs-document.ts).
  await registerDocsPage(docs, DOCS_PREFIX, examplesShownNotFilled(api), (document, request) => {
    const passwords = logins.showPasswords(request);
    return withSeededLogins(document, logins.users.map(({ login, password, permissions }) => ({ login, permissions, ...(passwords ? { password } : {}) })));
  });
  await registerDocsPage(docs, CONTROL_DOCS_PREFIX, examplesShownNotFilled(control));
  // No operation lives under /docs, so the API's not-found handler answers 404 ROUTE_NOT_FOUND.
  const notFound = createRouteNotFoundHandler([], errors, messages);
  docs.setNotFoundHandler(notFound);
  docs.setErrorHandler((error, request, reply) => {
    // A path @fastify/static refuses (dot segments that leave its folder) names no page: the document's 404.
    const answer = (error as { statusCode?: number }).statusCode === 403 ? notFound(request, reply).catch((refusal: unknown) => refusal) : Promise.resolve(error);
    return answer.then((refusal) => sendApiError(reply, toApiError(refusal, request, errors, messages)));
  });
  await docs.ready();
  return docs;
}

/**
 * Interactive docs of the monitoring API at /docs and of the control API at /docs/control,
 * served offline (Swagger UI); "Try it out" calls the fake itself. They are served by a Fastify
 * app of their own, built on the first request under /docs: most runs never open the docs.
 */
export function registerDocs(app: FastifyInstance, sources: DocsSources, errors: DocsErrors, logins: DocsLogins): void {
  let docsApp: Promise<FastifyInstance> | undefined;
  // Built once; a failed build is tried again by the next request.
  const built = () =>
    (docsApp ??= buildDocsApp(sources, errors, logins).catch((error: unknown) => {
      docsApp = undefined;
      throw error;
    }));
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const docs = await built();
    reply.hijack();
    docs.routing(request.raw, reply.raw);
  };
  app.get(DOCS_PREFIX, forward);
  app.get(`${DOCS_PREFIX}/*`, forward);
  app.addHook('onClose', async () => {
    if (docsApp) await (await docsApp.catch(() => undefined))?.close();
  });
}
