// The kit's own documents parsed once, by the build: `npm run build` writes each YAML file of
// openapi/ as JSON in dist/documents/ with the SHA-256 of the text it parsed. Loading a
// document then reads that JSON (much faster than parsing YAML) when the YAML file still has
// that hash, and parses the YAML otherwise (an edited checkout, a missing build).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { JSON_SCHEMA, load } from 'js-yaml';
import { packageRoot } from './paths.js';

const cacheDir = join(packageRoot, 'dist', 'documents');

interface CachedDocument {
  readonly sha256: string;
  readonly document: unknown;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const cacheFile = (yamlFile: string, dir: string) => join(dir, `${basename(yamlFile)}.json`);

/** The parsed document when the build parsed this very text of the file, else undefined. */
export function cachedDocument(yamlFile: string, text: string | Buffer, dir = cacheDir): unknown {
  try {
    const cached = JSON.parse(readFileSync(cacheFile(yamlFile, dir), 'utf8')) as CachedDocument;
    return cached.sha256 === sha256(text) ? cached.document : undefined;
  } catch {
    return undefined;
  }
}

/** The document at this path as written (no `$ref` followed): the build's parsed copy, or the YAML parsed now. */
export function readDocument(yamlFile: string): unknown {
  const text = readFileSync(yamlFile, 'utf8');
  return cachedDocument(yamlFile, text) ?? load(text, { schema: JSON_SCHEMA });
}

/** A parser for json-schema-ref-parser, tried before its YAML parser: the cached document, or a refusal that hands the file on. */
export const documentCacheParser = {
  order: 1,
  canParse: ['.yaml', '.yml'],
  parse(file: { url: string; data: string | Buffer }): unknown {
    const document = cachedDocument(file.url, file.data);
    if (document === undefined) throw new Error(`no parsed copy of ${file.url} in ${cacheDir}`);
    return document;
  },
};

/** Writes the cache of the YAML files (the build runs this); a document JSON cannot hold exactly gets none. */
export function writeDocumentCache(yamlFiles: readonly string[], dir = cacheDir): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const yamlFile of yamlFiles) {
    const text = readFileSync(yamlFile, 'utf8');
    const document = load(text, { schema: JSON_SCHEMA });
    const json = JSON.stringify({ sha256: sha256(text), document } satisfies CachedDocument);
    if (!isDeepStrictEqual((JSON.parse(json) as CachedDocument).document, document)) continue;
    writeFileSync(cacheFile(yamlFile, dir), json);
    written.push(cacheFile(yamlFile, dir));
  }
  return written;
}
