// The values a case captures are credentials: each is masked in every report from then on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCaseFile } from '../../../src/contract/cases/load-cases.js';
import { capturedCredentials } from '../../../src/contract/cases/case-values.js';
import { exchange, specAndValidator } from '../helpers/synthetic.js';

const CASE = `
getCurrentUser:
  - name: captures
    steps:
      - name: read
        operationId: getCurrentUser
        expect: { status: 200 }
        capture:
          token: { body: /authenticationToken }
          id: { body: /id }
          login: { body: /login }
          sessionHeader: { header: X-Session-Id }
          trace: { header: x-trace-id }
          bearer: { header: x-request-ref }
          viaQuery: { header: x-other }
          viaBody: { header: x-third }
      - name: send
        operationId: createSession
        as: anonymous
        auth: none
        headers: { authorization: 'Bearer {{bearer}}', x-trace: '{{trace}}' }
        query: { auth-token: '{{viaQuery}}', page: '{{id}}' }
        body: { login: '{{login}}', password: '{{viaBody}}' }
        expect: { status: 200 }
`;

describe('captured credentials', () => {
  it('takes every value a step captures from a body or header as a credential, and the credential after a scheme and a cookie value besides', async () => {
    const { spec } = await specAndValidator();
    const dir = mkdtempSync(join(tmpdir(), 'cases-'));
    writeFileSync(join(dir, 'c.yaml'), CASE);
    const [c] = await loadCaseFile(join(dir, 'c.yaml'), spec);
    const answer = exchange('getCurrentUser', {
      status: 200,
      body: { id: '5867948233835d9661c56dc8', login: 'admin', authenticationToken: 'tok-1234-abcd' },
      headers: { 'x-session-id': 'sid=s-1234-5678; Path=/', 'x-trace-id': 'trace-1', 'x-request-ref': 'Bearer ref-99-88', 'x-other': 'o-1', 'x-third': 't-1' },
    });
    expect(capturedCredentials(c!.steps[0]!, answer).sort()).toEqual(['5867948233835d9661c56dc8', 'admin', 'Bearer ref-99-88', 'o-1', 'ref-99-88', 's-1234-5678', 'sid=s-1234-5678; Path=/', 't-1', 'tok-1234-abcd', 'trace-1'].sort());
  });
});
