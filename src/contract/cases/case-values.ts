// Values in a case: {{name}} templates filled, values captured from an answer, and which captures are credentials.
import { bodyToken } from '../client/credentials.js';
import type { ReceivedResponse, Exchange } from '../types.js';
import type { Spec } from '../../spec/index.js';
import { isSchemaNode, itemSchema, propertySchema, schemaBranches } from '../../spec/schema-branches.js';
import { isSecretName as isSecretKey } from '../../shared/redaction/secret-names.js';
import type { CaseStep, ContractCase } from './load-cases.js';

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** The variable names a value refers to, with the JSON path where each occurs. */
export function variablesIn(value: unknown, at = ''): { name: string; at: string }[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => ({ name: m[1] ?? '', at }));
  if (Array.isArray(value)) return value.flatMap((v, i) => variablesIn(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => variablesIn(v, at ? `${at}.${k}` : k));
  return [];
}

export function fill<T>(value: T, vars: ReadonlyMap<string, unknown>): T {
  if (typeof value === 'string') {
    const whole = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(value);
    if (whole?.[1] && vars.has(whole[1])) return vars.get(whole[1]) as T;
    return value.replace(PLACEHOLDER, (m, name: string) => (vars.has(name) ? String(vars.get(name)) : m)) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)])) as T;
  return value;
}

/** The value at a JSON pointer (`/a/0/b`), or undefined. */
function pointerGet(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return value;
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>((at, t) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), value);
}

/** The value a body or header capture takes from an answer; undefined when there is none. */
export function answerValue(from: { readonly body: string } | { readonly header: string }, response: ReceivedResponse | undefined): unknown {
  // The whole body (`''`) is one value: a JSON string or a bare text token; an object or list is none.
  if ('body' in from) return from.body === '' ? bodyToken(response) : pointerGet(response?.json, from.body);
  return response?.headers[from.header.toLowerCase()];
}

type Node = Record<string, unknown>;

const CREDENTIAL_NAME = /^(set-cookie|cookie|authorization|proxy-authorization)$|token|session|sid|csrf|xsrf|auth|api-?key|secret|passw|credential/i;
// Deeper than any schema of this API; a document nested further is not walked.
const MAX_DEPTH = 16;

/** Whether the document marks `x-secret` the value at a JSON pointer of a value of this schema. */
function marksSecretAt(schema: Node, pointer: string): boolean {
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let schemas = schemaBranches([schema], MAX_DEPTH);
  for (const token of tokens.slice(0, MAX_DEPTH)) {
    // A token of digits is an array's index, unless the schema names it as a property.
    const child = (s: Node) => (/^\d+$/.test(token) && !(isSchemaNode(s.properties) && Object.hasOwn(s.properties, token)) && itemSchema(s, Number(token))) || propertySchema(s, token);
    schemas = schemaBranches(schemas.flatMap<Node>((s) => child(s) ?? []), MAX_DEPTH);
  }
  return schemas.some((s) => s['x-secret'] === true);
}

/** The header, query and cookie names the document's security schemes give credentials. */
function schemeNames(spec: Spec): Set<string> {
  const schemes = Object.values(spec.document.components?.securitySchemes ?? {}) as { in?: string; name?: string }[];
  return new Set(schemes.flatMap((scheme) => (scheme.in && scheme.name ? [scheme.name.toLowerCase()] : [])));
}

const lastKey = (at: string): string => at.replace(/\[\d+\]/g, '').split('.').at(-1) ?? '';

/** The names of a case's captures whose values are credentials. */
// Which captures are credentials, decided from the case before it runs: a cookie; a header named
// like one (Authorization, *token*, *session*, a security scheme's name); a body field the document
// marks `x-secret` or named like a credential; any value a later step sends as a credential.
export function secretCaptures(spec: Spec, c: ContractCase): ReadonlySet<string> {
  const named = schemeNames(spec);
  const credentialName = (name: string): boolean => CREDENTIAL_NAME.test(name) || named.has(name.toLowerCase());
  const secret = new Set<string>();
  for (const step of c.steps) {
    const sentAsCredential = [
      ...variablesIn(step.cookies ?? {}),
      ...variablesIn(step.headers ?? {}).filter((v) => credentialName(v.at)),
      ...variablesIn(step.query ?? {}).filter((v) => credentialName(v.at) || isSecretKey(v.at)),
      ...variablesIn(step.body ?? null).filter((v) => isSecretKey(lastKey(v.at))),
    ];
    for (const v of sentAsCredential) secret.add(v.name);
    const schemas = Object.values(spec.operation(step.operationId).responses).map((r) => r.content?.['application/json']?.schema);
    for (const [name, from] of Object.entries(step.capture ?? {})) {
      if ('cookie' in from) secret.add(name);
      else if ('header' in from && credentialName(from.header)) secret.add(name);
      else if ('body' in from && (isSecretKey(from.body.split('/').at(-1) ?? '') || schemas.some((s) => isSchemaNode(s) && marksSecretAt(s, from.body)))) secret.add(name);
    }
  }
  // Built-in values sent as credentials (the passwords) are masked already.
  const captured = new Set(c.steps.flatMap((step) => Object.keys(step.capture ?? {})));
  return new Set([...secret].filter((name) => captured.has(name)));
}

/**
 * What of a captured value is a credential: the value, the credential after an authentication
 * scheme (`Bearer <token>`), the value of a cookie (`sid=<id>; Path=/`); each string of a header
 * sent more than once.
 */
function credentialParts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(credentialParts);
  if (typeof value === 'number') return [String(value)];
  if (typeof value !== 'string') return [];
  const scheme = /^\s*[A-Za-z][\w-]*\s+(\S+)\s*$/.exec(value)?.[1];
  const cookie = /^\s*[^=;\s]+=([^;]*)/.exec(value)?.[1];
  return [value, ...(scheme ? [scheme] : []), ...(cookie ? [cookie] : [])];
}

/** The credentials a step captures from its answer (cookies come from the jar, which masks what it keeps). */
export function capturedCredentials(step: CaseStep, exchange: Exchange, secret: ReadonlySet<string>): string[] {
  return Object.entries(step.capture ?? {}).flatMap(([name, from]) => (secret.has(name) && !('cookie' in from) ? credentialParts(answerValue(from, exchange.response)) : []));
}
