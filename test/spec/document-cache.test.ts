import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, JSON_SCHEMA } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { cachedDocument, writeDocumentCache } from '../../src/spec/document-cache.js';
import { controlApiPath, monitoringApiPath } from '../../src/spec/index.js';

describe('the parsed copies of the documents', () => {
  it('give the document as YAML parses it, for that very text only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'documents-'));
    expect(writeDocumentCache([monitoringApiPath, controlApiPath], dir)).toHaveLength(2);
    for (const file of [monitoringApiPath, controlApiPath]) {
      const text = readFileSync(file, 'utf8');
      expect(cachedDocument(file, text, dir)).toEqual(load(text, { schema: JSON_SCHEMA }));
      expect(cachedDocument(file, Buffer.from(text), dir)).toEqual(load(text, { schema: JSON_SCHEMA }));
      // An edited document is parsed again, never taken from an older copy.
      expect(cachedDocument(file, `${text}\n# edited\n`, dir)).toBeUndefined();
    }
  });

  it('are skipped when missing or unreadable, and never made for a document JSON cannot hold', () => {
    const dir = mkdtempSync(join(tmpdir(), 'documents-'));
    expect(cachedDocument(monitoringApiPath, readFileSync(monitoringApiPath, 'utf8'), dir)).toBeUndefined();
    writeFileSync(join(dir, 'monitoring-api.yaml.json'), '{ not json');
    expect(cachedDocument(monitoringApiPath, readFileSync(monitoringApiPath, 'utf8'), dir)).toBeUndefined();
    const odd = join(dir, 'odd.yaml');
    writeFileSync(odd, 'a: .inf\n');
    expect(writeDocumentCache([odd], dir)).toEqual([]);
  });
});
