// JSON from a server, parsed only within bounds: a body nested thousands of levels deep would
// overflow every recursive walk after it (schema validation, masking, comparison), and one of
// countless values would cost memory and a schema error each. The bytes are measured before
// anything is decoded: a body past the bounds never becomes a string of its own.

export interface JsonLimits {
  readonly maxDepth: number;
  readonly maxValues: number;
}

/**
 * Deep enough for any answer of the document; values enough for a page of 250 event log records
 * (about 30 values each). Each value of a wrong answer can cost a dozen schema errors, so this
 * bounds memory too.
 */
export const JSON_LIMITS: JsonLimits = { maxDepth: 100, maxValues: 8_000 };

// Values of one record at most, with room: a trap with its varbinds counts up to 42 in the fake's data.
const VALUES_PER_RECORD = 64;

/** What the runner reads and parses of an answer when reference lists ask for `maxRecords` records: more records, more room. */
export function answerLimitsFor(maxRecords: number): { readonly maxBodyBytes: number; readonly json: JsonLimits } {
  return {
    maxBodyBytes: Math.max(1024 * 1024, 1024 * maxRecords),
    json: { ...JSON_LIMITS, maxValues: Math.max(JSON_LIMITS.maxValues, VALUES_PER_RECORD * maxRecords) },
  };
}

export interface ParsedJson {
  readonly json?: unknown;
  /** The decoded text when it parsed. */
  readonly text?: string;
  /** Containers and separators counted (a measure of the parsed value's size). */
  readonly values: number;
  /** Why a body was not parsed although it may be JSON. */
  readonly error?: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;

/**
 * Depth and number of values (containers and separators) of a JSON text in UTF-8, in one pass
 * without recursion (bytes of multi-byte characters are never ASCII); stops at the first bound passed.
 */
export function measureJson(bytes: Uint8Array, limits: JsonLimits = JSON_LIMITS): { readonly values: number; readonly excess?: string } {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      values++;
      if (depth > limits.maxDepth) return { values, excess: `nests deeper than ${limits.maxDepth} levels` };
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA) {
      values++;
    }
    if (values > limits.maxValues) return { values, excess: `holds more than ${limits.maxValues} values` };
  }
  return { values };
}

/** The parsed value and its text, or why there is none: not JSON (no error), or past the bounds (an error). */
export function parseJson(bytes: Uint8Array, limits: JsonLimits = JSON_LIMITS): ParsedJson {
  if (bytes.length === 0) return { values: 0 };
  const { values, excess } = measureJson(bytes, limits);
  if (excess) return { values, error: `the body ${excess}, beyond what the runner parses` };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  try {
    return { json: JSON.parse(text) as unknown, text, values };
  } catch {
    return { values };
  }
}
