// Which captures of a case are credentials: by where they come from (a cookie, a header named as
// one, a body value the document marks x-secret or a field named as one) or where a later step sends them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCasesDir, loadCaseFile, loadCases } from '../../../src/contract/cases/load-cases.js';
import { capturedCredentials, secretCaptures } from '../../../src/contract/cases/case-values.js';
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

describe('secret captures', () => {
  it("takes the document's x-secret values, cookies and credential headers as credentials", async () => {
    const { spec } = await specAndValidator();
    const cases = await loadCases(defaultCasesDir, spec);
    const flow = (name: string) => cases.find((c) => c.name === name);
    // tokens.yaml: the whole body of createAuthToken, an AuthToken (x-secret); sessions.yaml: the sid cookie.
    expect([...secretCaptures(spec, flow('token-flow')!)].sort()).toEqual(['first', 'second']);
    expect([...secretCaptures(spec, flow('session-flow')!)]).toEqual(['sid']);
  });

  it('takes a value a later step sends as a credential as one, and no other', async () => {
    const { spec } = await specAndValidator();
    const dir = mkdtempSync(join(tmpdir(), 'cases-'));
    writeFileSync(join(dir, 'c.yaml'), CASE);
    const [c] = await loadCaseFile(join(dir, 'c.yaml'), spec);
    const secret = secretCaptures(spec, c!);
    expect([...secret].sort()).toEqual(['bearer', 'sessionHeader', 'token', 'viaBody', 'viaQuery']);
    const answer = exchange('getCurrentUser', {
      status: 200,
      body: { id: '5867948233835d9661c56dc8', login: 'admin', authenticationToken: 'tok-1234-abcd' },
      headers: { 'x-session-id': 'sid=s-1234-5678; Path=/', 'x-trace-id': 'trace-1', 'x-request-ref': 'Bearer ref-99-88', 'x-other': 'o-1', 'x-third': 't-1' },
    });
    // The credential after a scheme and a cookie's value are masked besides the whole header.
    expect(capturedCredentials(c!.steps[0]!, answer, secret).sort()).toEqual(['Bearer ref-99-88', 'o-1', 'ref-99-88', 's-1234-5678', 'sid=s-1234-5678; Path=/', 't-1', 'tok-1234-abcd'].sort());
  });
});
