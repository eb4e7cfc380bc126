// The documents as the docs pages show them. Swagger UI's "Try it out" fills every parameter
// with its example, so Execute sent a filter, a time window and a skip at once and the fake
// looked empty: optional parameters show their example in their description instead, and
// only `limit` (a page size, never an empty answer) keeps one to fill.
import { terminalText } from '../shared/escape.js';

type Json = Record<string, unknown>;

/** The parameters whose example Swagger UI may fill in. */
const FILLED = new Set(['limit']);

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a local `$ref` ('#/a/b') points at in the document, following chains; the value itself otherwise. */
function resolved(document: Json, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 20 && isObject(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/'); hops++) {
    const path = current.$ref.slice(2).split('/').map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), document);
  }
  return current;
}

/** A value as a Markdown code span (a longer fence when the value holds backticks). */
function codeSpan(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const fence = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${fence}${fence.length > 1 ? ' ' : ''}${text}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/** One parameter with its examples moved into its description (a copy; the same object when nothing moves). */
function exampleShownNotFilled(document: Json, given: unknown): unknown {
  const parameter = resolved(document, given);
  if (!isObject(parameter) || parameter.required === true || FILLED.has(String(parameter.name))) return given;
  const { example, examples, schema, ...rest } = parameter;
  const schemaResolved = resolved(document, schema);
  const schemaExample = isObject(schemaResolved) ? schemaResolved.example : undefined;
  const shown = [
    ...(example === undefined ? [] : [example]),
    ...(isObject(examples) ? Object.values(examples).map((e) => (isObject(e) ? e.value : undefined)).filter((v) => v !== undefined) : []),
    ...(example === undefined && !isObject(examples) && schemaExample !== undefined ? [schemaExample] : []),
  ];
  if (shown.length === 0) return given;
  const { example: _dropped, ...schemaRest } = isObject(schemaResolved) ? schemaResolved : {};
  const description = [typeof rest.description === 'string' ? rest.description : '', `Example: ${shown.map(codeSpan).join(', ')}`].filter(Boolean).join('\n\n');
  return { ...rest, description, ...(schema === undefined ? {} : { schema: schemaExample === undefined ? schema : schemaRest }) };
}

/** The document with the examples of optional parameters (but `limit`) shown in their descriptions, not filled in. */
export function examplesShownNotFilled(document: Json): Json {
  const paths = isObject(document.paths) ? document.paths : {};
  const out: Json = {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) {
      out[path] = item;
      continue;
    }
    const moved = (parameters: unknown) => (Array.isArray(parameters) ? parameters.map((p) => exampleShownNotFilled(document, p)) : parameters);
    const copy: Json = { ...item };
    if (item.parameters !== undefined) copy.parameters = moved(item.parameters);
    for (const [method, operation] of Object.entries(item)) {
      // Of a path item's fields, only its operations are objects with parameters.
      if (isObject(operation) && operation.parameters !== undefined) copy[method] = { ...operation, parameters: moved(operation.parameters) };
    }
    out[path] = copy;
  }
  return { ...document, paths: out };
}

/** The document with the fake's seeded logins at the end of its description, as the start banner prints them; a password only where the page may show it. */
export function withSeededLogins(document: Json, users: readonly { login: string; permissions: readonly string[]; password?: string }[]): Json {
  if (users.length === 0) return document;
  const withPasswords = users.some((u) => u.password !== undefined);
  // What a users file or a recorded server chose is shown as code: never markup, one line, no cell of its own.
  const cell = (text: string) => codeSpan(terminalText(text)).replace(/\|/g, '\\|');
  const rows = users.map((u) => `| ${cell(u.login)} |${withPasswords ? ` ${u.password === undefined ? '' : cell(u.password)} |` : ''} ${u.permissions.map(cell).join(', ') || '(none)'} |`);
  const table = [
    '## Seeded logins of this fake',
    '',
    `Development credentials of this fake: use them with **Authorize** (basicAuth), or log in with \`createSession\`.${withPasswords ? '' : ' Their passwords are shown to loopback clients only.'}`,
    '',
    withPasswords ? '| login | password | permissions |' : '| login | permissions |',
    withPasswords ? '| --- | --- | --- |' : '| --- | --- |',
    ...rows,
  ].join('\n');
  const info = isObject(document.info) ? document.info : {};
  const description = typeof info.description === 'string' && info.description !== '' ? `${info.description.trimEnd()}\n\n${table}\n` : `${table}\n`;
  return { ...document, info: { ...info, description } };
}
