// The one list of what names a credential, for every output of the kit: the fake's logs and
// journal, the runner's reports, recordings. A name is a header, a query parameter, a cookie or a
// JSON field: those the document gives credentials (its security schemes' names, the properties it
// marks `x-secret`, see secretNamesOf) and those every HTTP API uses for them.

/** What the runner's reports and recordings show in place of a secret. */
export const REPORT_MASK = '***';
/** What the fake's logs, journal and inspector show in place of a secret. */
export const LOG_MASK = '[redacted]';

/** Names whose value is a credential wherever they appear, compared without case. */
export const SECRET_NAMES: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-csrf-token',
  'csrf',
  'sid',
  'api-token',
  'auth-token',
  'token',
  'access_token',
  'authenticationToken',
  'password',
];

// Words of a field name (camelCase, snake_case, kebab-case) that name a credential.
const SECRET_WORDS = new Set(['password', 'passwd', 'pass', 'pwd', 'secret', 'hash', 'hashed', 'salt', 'passphrase']);
const NAMES = new Set(SECRET_NAMES.map((name) => name.toLowerCase()));

/** A field name that holds a credential by its words: `password`, `passwd`, `secret`, `passwordHash`, `salt`… */
export const isSensitiveKey = (key: string): boolean =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/)
    .some((word) => SECRET_WORDS.has(word));

/** A name whose value no output shows: one of SECRET_NAMES, or a name made of a credential's words. */
export const isSecretName = (name: string): boolean => NAMES.has(name.toLowerCase()) || isSensitiveKey(name);

// The usual encodings of stored password hashes: bcrypt, argon2, crypt(3) MD5/SHA, PBKDF2, LDAP.
const HASH_VALUE = /^(\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|\$argon2(?:id|i|d)\$\S+|\$[156]\$\S+|\$pbkdf2[-$][^\s]+|pbkdf2_sha\d+\$\S+|\{(?:SSHA|SHA|SSHA256|SSHA512|SMD5|MD5|CRYPT)\}\S+)$/;

/** A string shaped like a stored password hash (`$2b$10$…`, `$argon2id$…`, `{SSHA}…`). */
export const isHashLike = (value: string): boolean => value.length <= 1024 && HASH_VALUE.test(value);

/** What an output may say of a credential: its kind and length, never its characters. */
export function describeSecret(value: unknown): string {
  if (typeof value !== 'string') return `*** (a ${value === null ? 'null' : typeof value})`;
  return `*** (${isHashLike(value) ? 'a password hash, ' : ''}${value.length} characters)`;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The names an OpenAPI document gives credentials: its security schemes' names and the properties
 * it marks `x-secret` (or whose schema it marks). A test holds each to be in SECRET_NAMES.
 */
export function secretNamesOf(document: unknown): string[] {
  if (!isNode(document) || !isNode(document.components)) return [];
  const { schemas = {}, securitySchemes = {} } = document.components as { schemas?: Node; securitySchemes?: Node };
  const marked = (schema: unknown): boolean => {
    if (!isNode(schema)) return false;
    if (schema['x-secret'] === true) return true;
    const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
    return ref !== undefined && isNode(schemas[ref]) && schemas[ref]['x-secret'] === true;
  };
  const names = new Set<string>();
  for (const scheme of Object.values(securitySchemes)) if (isNode(scheme) && typeof scheme.name === 'string') names.add(scheme.name);
  for (const schema of Object.values(schemas)) {
    if (!isNode(schema) || !isNode(schema.properties)) continue;
    for (const [name, property] of Object.entries(schema.properties)) if (marked(property)) names.add(name);
  }
  return [...names];
}
