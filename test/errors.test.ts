import { describe, expect, it } from 'vitest';
import { ApiError, createErrorFactory } from '../src/errors.js';
import type { ErrorCode } from '../src/spec/types.js';
import { spec, validator } from './server/helpers.js';

describe('createErrorFactory', () => {
  const errors = createErrorFactory(spec.document);

  it('takes each status from the document', () => {
    const expected: Record<string, number> = {
      MALFORMED_JSON: 400,
      UNAUTHENTICATED: 401,
      TOKEN_AUTH_DISABLED: 401,
      PERMISSION_DENIED: 403,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      INTERNAL_ERROR: 500,
    };
    for (const [code, status] of Object.entries(expected)) expect(errors(code as ErrorCode, 'x').status).toBe(status);
  });

  it('builds the document Error body, with details and permission when given', () => {
    const error = errors('PERMISSION_DENIED', 'Permission "manage-users" is required.', { permission: 'manage-users' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.toBody()).toEqual({ status: 403, code: 'PERMISSION_DENIED', message: 'Permission "manage-users" is required.', permission: 'manage-users' });
    const invalid = errors('INVALID_PARAMETER', 'bad', { details: [{ location: 'query', name: 'limit', problem: 'must be a string of digits' }] });
    expect(validator.validateNamed('Error', invalid.toBody())).toEqual([]);
    expect(errors('NOT_FOUND', 'none', { details: [] }).toBody()).not.toHaveProperty('details');
  });

  it('refuses a code the document does not list', () => {
    expect(() => errors('NO_SUCH_CODE' as ErrorCode, 'x')).toThrow(/NO_SUCH_CODE/);
  });
});
