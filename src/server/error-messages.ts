import { errorCatalog, fillMessage, responseMessages, type Document } from '../spec/index.js';
import type { ErrorCode } from '../spec/types.js';

type MessageNames = Readonly<Partial<Record<ErrorCode, readonly string[]>>>;
type MessagesByCode = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** The messages the monitoring API's checks, hooks and handlers send, by code: the `x-messages` of its error list. */
const API_MESSAGES = {
  MALFORMED_JSON: ['notJson', 'notUtf8'],
  INVALID_PARAMETER: ['invalid', 'badUrl', 'queryContentType', 'problems', 'preferExample'],
  INVALID_BODY: ['invalid', 'problems', 'firstOnly'],
  MALFORMED_REQUEST: ['hostMissing', 'headerRepeated', 'targetUserinfo', 'hostUserinfo', 'notHttp', 'notHttpBecause'],
  REQUEST_TIMEOUT: ['late'],
  UNAUTHENTICATED: ['missing', 'basicMalformed', 'basicWrong', 'sessionUnknown', 'sessionRepeated', 'tokenUnknown', 'differentUsers', 'cookieForOtherHost', 'loginWrong'],
  TOKEN_AUTH_DISABLED: ['disabled'],
  PERMISSION_DENIED: ['permissionMissing', 'hostInvalid', 'hostNotAllowed'],
  CSRF_TOKEN_INVALID: ['mismatch'],
  NOT_FOUND: ['user', 'record'],
  ROUTE_NOT_FOUND: ['noOperation', 'start'],
  METHOD_NOT_ALLOWED: ['notAllowed', 'connect'],
  PAYLOAD_TOO_LARGE: ['tooLarge'],
  EXPECTATION_FAILED: ['unsupported'],
  HEADERS_TOO_LARGE: ['tooLarge'],
  UNSUPPORTED_MEDIA_TYPE: ['notJson', 'missing', 'other', 'coded'],
  NOT_AN_SNMP_RECORD: ['notSnmp'],
  RATE_LIMITED: ['blocked'],
  INJECTED_FAULT: ['preferredStatus'],
  INTERNAL_ERROR: ['unexpected'],
} as const satisfies MessageNames;

/** The messages of the control API's refusals: the `x-messages` of its responses, by code. */
const CONTROL_MESSAGES = {
  PERMISSION_DENIED: ['notLoopback', 'hostNotThisServer', 'originNotAllowed'],
  INVALID_BODY: ['schemaProblem', 'schemaProblems', 'schemaProblemsListed', 'idExists', 'faultsFull', 'snapshotUnusable'],
  NOT_FOUND: ['fault'],
} as const satisfies MessageNames;

/** A message of a document, its `{placeholders}` filled in: the text lives in the document, not in code. */
export type Messages<N extends MessageNames> = <C extends keyof N & ErrorCode>(code: C, name: NonNullable<N[C]>[number], values?: Readonly<Record<string, string>>) => string;
export type ErrorMessage = Messages<typeof API_MESSAGES>;
export type ControlMessage = Messages<typeof CONTROL_MESSAGES>;
/** Why the guard refuses a request with 401, by the name of its message. */
export type UnauthenticatedMessage = (typeof API_MESSAGES)['UNAUTHENTICATED'][number];

/**
 * Every message of `names`, looked up now: a document that lacks one fails when the server is
 * built, not on the request that needs it. Those the first source lacks come from the next.
 */
function createMessages<N extends MessageNames>(names: N, sources: readonly MessagesByCode[]): Messages<N> {
  const templates = new Map<string, ReadonlyMap<string, string>>();
  for (const [code, list] of Object.entries(names) as [string, readonly string[]][]) {
    const ofCode = new Map<string, string>();
    for (const name of list) {
      const template = sources.map((source) => source.get(code)?.[name]).find((m) => m !== undefined);
      if (template === undefined) throw new Error(`The document has no message "${name}" for "${code}" (x-messages).`);
      ofCode.set(name, template);
    }
    templates.set(code, ofCode);
  }
  return (code, name, values) => fillMessage(templates.get(code)!.get(name)!, values);
}

const messagesOfList = (document: Document): MessagesByCode => new Map([...errorCatalog(document)].map(([code, entry]) => [code, entry.messages]));

/** The monitoring API's messages, from its error list; those a document other than the kit's lacks, from `fallback`. */
export const createErrorMessages = (document: Document, fallback?: Document): ErrorMessage =>
  createMessages(API_MESSAGES, [document, ...(fallback ? [fallback] : [])].map(messagesOfList));

/** The control API's messages, from its document's responses; those another document lacks, from `fallback`. */
export const createControlMessages = (document: Document, fallback?: Document): ControlMessage =>
  createMessages(CONTROL_MESSAGES, [document, ...(fallback ? [fallback] : [])].map(responseMessages));
