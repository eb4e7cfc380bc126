import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createSpecValidator, loadSpec, type SpecValidator } from '../../src/spec/index.js';

export const spec = await loadSpec();
export const validator = createSpecValidator(spec);

/** The seeded users of fixtures/users.json, written out by hand. */
export const USERS = {
  admin: { id: '5867948233835d9661c56dc8', login: 'admin', password: 'admin-password' },
  operator: { id: '5867948233835d9661c56dca', login: 'operator', password: 'operator-password' },
  viewer: { id: '5867948233835d9661c56dc9', login: 'viewer', password: 'viewer-password' },
} as const;
export type UserName = keyof typeof USERS;

export const API = '/node/api';

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

export function basicOf(user: UserName): { authorization: string } {
  return { authorization: basic(USERS[user].login, USERS[user].password) };
}

/** A check that a response conforms to one document for an operation. */
export function conformanceCheck(checker: SpecValidator) {
  return (operationId: string, response: LightMyRequestResponse): void => {
    const problems = checker.checkResponse(operationId, {
      status: response.statusCode,
      headers: response.headers as Record<string, string | string[] | undefined>,
      body: response.body,
    });
    expect(problems, `${operationId} ${response.statusCode} ${response.body}`).toEqual([]);
  };
}

/** The response conforms to the monitoring API document for this operation. */
export const expectConforms = conformanceCheck(validator);

/** The response is the document's Error body with this status and code (for answers outside any operation). */
export function expectError(response: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(validator.validateNamed('Error', body)).toEqual([]);
  expect(body).toMatchObject({ status, code });
  return body;
}

export function cookieValue(response: LightMyRequestResponse, name: string): string {
  const cookie = response.cookies.find((c) => c.name === name);
  if (!cookie) throw new Error(`no ${name} cookie in the response`);
  return cookie.value;
}
