import type { LightMyRequestResponse } from 'fastify';
import type { Operation, SpecValidator } from '../../../src/spec/index.js';
import type { FuzzRequest } from './request-arbitrary.js';

interface Route {
  readonly operationId: string;
  readonly method: string;
  readonly pattern: RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$|()[\]\\]/g, '\\$&');

/** The route a path template gives, as Fastify's router matches it: one non-empty segment per parameter. */
function routeOf(op: Operation): Route {
  const source = op.path.split(/\{[^}/]+\}/).map(escapeRegExp).join('[^/]+');
  return { operationId: op.operationId, method: op.method.toUpperCase(), pattern: new RegExp(`^${source}$`) };
}

/**
 * The path as the router sees it: dot segments resolved (as `inject`, like any HTTP client,
 * does with the URL), then percent-decoded except reserved characters; undefined when it
 * does not decode.
 */
function routedPath(url: string): string | undefined {
  try {
    return decodeURI(new URL(url, 'http://fake.invalid').pathname);
  } catch {
    return undefined;
  }
}

/**
 * Checks one answer of the fuzz run: never a 5xx; for a request that reaches an operation,
 * a response the document allows (status, content type, schema); for any other request,
 * the document's Error body with a 4xx. Returns what is wrong, empty when nothing is.
 */
export function createAnswerChecker(operations: readonly Operation[], validator: SpecValidator) {
  const routes = operations.map(routeOf);
  return (request: FuzzRequest, response: LightMyRequestResponse): string[] => {
    const status = response.statusCode;
    const problems: string[] = [];
    if (status >= 500) problems.push(`status ${status}`);
    if (request.method === 'HEAD') return problems;
    const path = routedPath(request.url);
    const route = path === undefined ? undefined : routes.find((r) => r.method === request.method && r.pattern.test(path));
    const observed = { status, headers: response.headers as Record<string, string | string[] | undefined>, body: response.body };
    if (route) {
      problems.push(...validator.checkResponse(route.operationId, observed).map((p) => `${route.operationId}: ${p.message}`));
    } else if (status < 400 || status >= 500) {
      problems.push(`status ${status} for a request that reaches no operation`);
    } else {
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        return [...problems, `a ${status} whose body is not JSON: ${response.body.slice(0, 100)}`];
      }
      problems.push(...validator.validateNamed('Error', body).map((e) => `Error body: ${e.message}`));
    }
    if (status >= 400 && response.body.length > 0) {
      const body = safeParse(response.body) as { status?: unknown } | undefined;
      if (body?.status !== status) problems.push(`the Error body says status ${String(body?.status)}, the response is ${status}`);
    }
    return problems;
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
