import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { monitoringApiPath } from '../../src/spec/index.js';

it('the committed types are what openapi-typescript makes of the document (run `npm run generate:types`)', async () => {
  const generated = astToString(await openapiTS(new URL(`file://${monitoringApiPath}`)));
  const committed = readFileSync(fileURLToPath(new URL('../../src/spec/api-types.ts', import.meta.url)), 'utf8');
  const body = (text: string) => text.slice(text.indexOf('export interface paths'));
  expect(body(committed).trim()).toBe(body(generated).trim());
});
