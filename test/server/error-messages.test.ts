import { describe, expect, it } from 'vitest';
import { createControlMessages, createErrorMessages } from '../../src/server/error-answers.js';
import { problemWords, type Document } from '../../src/spec/index.js';
import { controlSpec } from './control/helpers.js';
import { spec } from './helpers.js';

// The texts of refusals live in the documents (`x-messages`); one a document lacks must stop
// the server from being built, not fail the request that needs it.
type Messages = Record<string, string>;
const without = (document: Document, messagesOf: (d: Document) => Messages, name: string): Document => {
  const copy = structuredClone(document);
  delete messagesOf(copy)[name];
  return copy;
};
const ofCode = (code: string) => (d: Document) =>
  ((d.components?.schemas?.ErrorCode as { oneOf: { const: string; 'x-messages': Messages }[] }).oneOf.find((e) => e.const === code)!)['x-messages'];
const permissionDenied = ofCode('PERMISSION_DENIED');
const problemWording = (d: Document) => ((d.components?.schemas?.ErrorDetail as { properties: { problem: { 'x-messages': Messages } } }).properties.problem)['x-messages'];
const notLoopback = (d: Document) => (d.components?.responses?.NotLoopback as unknown as { 'x-messages': Record<string, Messages> })['x-messages'].PERMISSION_DENIED!;

describe('the messages of refusals', () => {
  it('fill in their placeholders from the monitoring document', () => {
    expect(createErrorMessages(spec.document)('PERMISSION_DENIED', 'permissionMissing', { permission: 'manage-users' })).toBe('Permission "manage-users" is required.');
  });

  it('fail when made from a document that lacks one, naming it; a fallback document fills it in', () => {
    const lacking = without(spec.document, permissionDenied, 'permissionMissing');
    expect(() => createErrorMessages(lacking)).toThrow('no message "permissionMissing" for "PERMISSION_DENIED"');
    expect(createErrorMessages(lacking, spec.document)('PERMISSION_DENIED', 'permissionMissing', { permission: 'p' })).toBe('Permission "p" is required.');
  });

  it('of a request without Host and of a Prefer header asking for 503 come from the document too, and fail the same way when it lacks one', () => {
    const messages = createErrorMessages(spec.document);
    expect(messages('MALFORMED_REQUEST', 'hostMissing')).toBe('An HTTP/1.1 request must have a Host header.');
    expect(messages('INJECTED_FAULT', 'preferredStatus')).toBe('Answered with this status, as the Prefer header asked.');
    expect(() => createErrorMessages(without(spec.document, ofCode('MALFORMED_REQUEST'), 'hostMissing'))).toThrow('no message "hostMissing" for "MALFORMED_REQUEST"');
    expect(() => createErrorMessages(without(spec.document, ofCode('INJECTED_FAULT'), 'preferredStatus'))).toThrow('no message "preferredStatus" for "INJECTED_FAULT"');
  });

  it('that no request of a client provokes (a validation error without details, a parser error without a reason) are the document\'s too', () => {
    const messages = createErrorMessages(spec.document);
    expect(messages('INVALID_PARAMETER', 'invalid')).toBe('The request is invalid.');
    expect(messages('INVALID_BODY', 'invalid')).toBe('The request is invalid.');
    expect(messages('MALFORMED_REQUEST', 'notHttp')).toBe('The request is not valid HTTP/1.1.');
  });

  it("of the control API come from its 403 response, and fail the same way when it lacks one", () => {
    expect(createControlMessages(controlSpec.document)('PERMISSION_DENIED', 'notLoopback')).toBe('The control API answers loopback clients only.');
    const lacking = without(controlSpec.document, notLoopback, 'originNotAllowed');
    expect(() => createControlMessages(lacking)).toThrow('no message "originNotAllowed" for "PERMISSION_DENIED"');
  });

  it('of the control API are keyed by code, each a code its response shows, and fail at build naming code and key', () => {
    const badRequest = (d: Document) => (d.components?.responses?.BadRequest as unknown as { 'x-messages': Record<string, Messages> })['x-messages'].INVALID_BODY!;
    expect(() => createControlMessages(without(controlSpec.document, badRequest, 'faultsFull'))).toThrow('no message "faultsFull" for "INVALID_BODY"');
    const elsewhere = structuredClone(controlSpec.document);
    (elsewhere.components!.responses!.FaultNotFound as unknown as { 'x-messages': Record<string, Messages> })['x-messages'].RATE_LIMITED = { blocked: 'x' };
    expect(() => createControlMessages(elsewhere)).toThrow('Response FaultNotFound: `x-messages` has messages of RATE_LIMITED, which none of its examples shows.');
  });

  it("of schema problems come from ErrorDetail's problem in the document; what another document lacks, from the kit's", () => {
    const words = problemWords(spec.document);
    expect(words('sent', { problem: words('oneOf', { values: '"asc", "desc"' }), value: '"up"' })).toBe('must be one of "asc", "desc", not "up"');
    const reworded = structuredClone(spec.document);
    problemWording(reworded).oneOf = 'takes only {values}';
    expect(problemWords(reworded)('oneOf', { values: '"asc"' })).toBe('takes only "asc"');
    const lacking = without(spec.document, problemWording, 'combined');
    expect(problemWords(lacking)('combined', { fields: '"a" and "b"' })).toBe('has "a" and "b", which cannot be combined; give only one');
    expect(problemWords(controlSpec.document)('required')).toBe('is required');
  });
});
