// What counts as a credential in an answer: a field named like a password, secret, hash or
// salt, and a value shaped like a password hash. The no-sensitive-data check flags them and
// report masking hides them, from this one list.

// Words of a field name (camelCase, snake_case, kebab-case) that name a credential.
const SENSITIVE_WORDS = new Set(['password', 'passwd', 'pass', 'pwd', 'secret', 'hash', 'hashed', 'salt', 'passphrase']);

// The usual encodings of stored password hashes: bcrypt, argon2, crypt(3) MD5/SHA, PBKDF2, LDAP.
const HASH_VALUE = /^(\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|\$argon2(?:id|i|d)\$\S+|\$[156]\$\S+|\$pbkdf2[-$][^\s]+|pbkdf2_sha\d+\$\S+|\{(?:SSHA|SHA|SSHA256|SSHA512|SMD5|MD5|CRYPT)\}\S+)$/;

const wordsOf = (key: string): string[] =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);

/** A field name that holds a credential: `password`, `passwd`, `pass`, `secret`, `passwordHash`, `salt`… */
export function isSensitiveKey(key: string): boolean {
  return wordsOf(key).some((word) => SENSITIVE_WORDS.has(word));
}

/** A string shaped like a stored password hash (`$2b$10$…`, `$argon2id$…`, `{SSHA}…`). */
export function isHashLike(value: string): boolean {
  return value.length <= 1024 && HASH_VALUE.test(value);
}

/** What a report may say of a credential: its kind and length, never its characters. */
export function describeSecret(value: unknown): string {
  if (typeof value !== 'string') return `*** (a ${value === null ? 'null' : typeof value})`;
  return `*** (${isHashLike(value) ? 'a password hash, ' : ''}${value.length} characters)`;
}
