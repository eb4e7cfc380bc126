import fc from 'fast-check';

/** encodeURIComponent for any string: lone surrogates (which no URL can carry) become U+FFFD first. */
export const encodeText = (text: string): string => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

/** Printable ASCII: what a header value may hold on the wire. */
export const headerText = (maxLength = 200) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

/** Text that breaks naive parsers: numbers out of range, keywords, unicode, control characters, long runs. */
export const hostileText = fc.oneof(
  fc.constantFrom(
    '', ' ', '-1', '-0', '0', '1e309', '-1e309', '1.5', '99999999999999999999999', '9007199254740993', '0x10', '1_000',
    'NaN', 'Infinity', 'true', 'false', 'null', 'undefined', '[]', '{}', '[object Object]', '__proto__', 'constructor',
    '%', '%zz', '%00', '\u0000', '\ud800', '../..', '$where', 'ｄｅｓｃ', 'asc ', 'DESC', '١٢٣', '😀'.repeat(50),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
);

/** Bodies that are not valid JSON, or JSON meant to hurt. */
export const brokenJson = fc.oneof(
  fc.constantFrom(
    '{', '}', '{"login":', '{"login": "admin",}', "{'login': 'admin'}", 'nope', 'NaN', '[1,2', '"unterminated', '\u0000', '{"a":1}{"b":2}',
    '{"__proto__":{"admin":true},"login":"admin","password":"x"}', '{"constructor":{"prototype":{"x":1}}}', '\ufeff{"text":"bom"}',
  ),
  fc.string({ maxLength: 100 }),
  fc.integer({ min: 1, max: 5_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1, max: 5_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
);

/** A JSON body over the 64 KiB limit. */
export const oversizedJson = fc.integer({ min: 64 * 1024 + 1, max: 300 * 1024 }).map((n) => JSON.stringify({ text: 'x'.repeat(n) }));

/** Regular expressions known to backtrack catastrophically in a naive engine. */
export const catastrophicRegexes = [
  '(a+)+$', '(a|a)*b', '(a|aa)+$', '^(([a-z])+.)+[A-Z]([a-z])+$', '(\\w+\\.)+x', '(.*a){20}', '^(a?){30}a{30}$', '(x+x+)+y',
  '.*.*.*.*.*.*=', '(\\d+)*[^\\d]', '(?:a|b|ab)*c', '(a*)*b', '\\1(a)', '(?<n>a)\\k<n>+',
];

/** Segments for a path parameter that no ObjectId pattern would accept, some not even valid URL encoding. */
export const hostileSegment = fc.oneof(
  hostileText.filter((s) => s.length > 0).map(encodeText),
  fc.constantFrom('%zz', '%', '%E0%A4%A', '%2F', '%2e%2e', '..', '.', '%00', '5867948233835D9661C56DC8', ';x', 'a;b=c'),
  fc.integer({ min: 100, max: 20_000 }).map((n) => 'a'.repeat(n)),
);
