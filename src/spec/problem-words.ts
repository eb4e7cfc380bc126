import { fillMessage, messagesOf } from './error-codes.js';
import { readDocument } from './document-cache.js';
import type { Document } from './load.js';
import { monitoringApiPath } from './paths.js';

/** The kinds of problem a schema error is worded as (error-field.ts, error-problems.ts). */
const NAMES = [
  'required', 'notAllowed', 'notAllowedListed', 'oneOf', 'constant', 'invalid', 'sent', 'arrayValue', 'objectValue',
  'combined', 'exactlyOne', 'types', 'either', 'both', 'severalForms', 'noForm', 'badName', 'notAName',
] as const;
export type ProblemWord = (typeof NAMES)[number];

/** The wording of a kind of problem, its `{placeholders}` filled in. */
export type ProblemWords = (name: ProblemWord, values?: Readonly<Record<string, string>>) => string;

/** The `x-messages` of the `problem` of a document's ErrorDetail: the wording of each kind of problem. */
function wordingOf(document: unknown): Readonly<Record<string, string>> {
  const schemas = (document as Document | undefined)?.components?.schemas;
  const problem = (schemas?.ErrorDetail as { properties?: { problem?: Record<string, unknown> } } | undefined)?.properties?.problem;
  return problem ? messagesOf(problem, 'ErrorDetail problem') : {};
}

let kitWording: Readonly<Record<string, string>> | undefined;

/**
 * How a document words schema problems, each looked up now (a missing one fails here, not on a
 * request); those another document lacks come from the kit's monitoring API document.
 */
export function problemWords(document: Document): ProblemWords {
  const own = wordingOf(document);
  const kit = NAMES.every((name) => name in own) ? {} : (kitWording ??= wordingOf(readDocument(monitoringApiPath)));
  const templates = new Map(
    NAMES.map((name) => {
      const template = own[name] ?? kit[name];
      if (template === undefined) throw new Error(`The document has no wording "${name}" for a problem (x-messages of ErrorDetail's problem).`);
      return [name, template];
    }),
  );
  return (name, values) => fillMessage(templates.get(name)!, values);
}
