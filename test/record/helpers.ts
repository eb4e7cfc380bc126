// `monitoring-api-kit record` in this process, as the CLI runs it, and what it wrote.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runRecord } from '../../src/cli/record.js';
import type { RecordFlags } from '../../src/cli/program.js';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';
import { RECORDING_FILES, type RecordingManifest } from '../../src/shared/recording-layout.js';

export const spec = await loadSpec();
export const validator = createSpecValidator(spec);

export const basic = (login: string, password: string): string => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** A fresh parent folder for recordings. */
export const scratch = (): string => mkdtempSync(join(tmpdir(), 'recording-'));

export async function record(flags: Partial<RecordFlags> & { out: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const all: RecordFlags = { login: 'admin', password: 'admin-password', maxRecords: 100_000, pageSize: 1000, maxWait: 30, timeout: 10_000, maxDuration: 120, ...flags };
  const code = await runRecord(all, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

export interface Recording {
  readonly manifest: RecordingManifest;
  readonly events: Record<string, unknown>[];
  readonly kept?: Record<string, unknown>[];
  readonly blocks?: Record<string, unknown>[];
  readonly users?: Record<string, unknown>[];
  /** Every file's text, by name. */
  readonly texts: Record<string, string>;
}

export function readRecording(dir: string): Recording {
  const texts = Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
  const json = (name: string) => (texts[name] === undefined ? undefined : JSON.parse(texts[name]));
  return {
    manifest: json(RECORDING_FILES.manifest),
    events: json(RECORDING_FILES.events),
    kept: json(RECORDING_FILES.keptInvalid),
    blocks: json(RECORDING_FILES.blocks),
    users: json(RECORDING_FILES.users),
    texts,
  };
}

/** Nothing of a failed run is left: no --out folder, no half-written folder beside it. */
export function expectNothingWritten(parent: string, out: string): void {
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(parent)).toEqual([]);
}

/** GET from the fake with Basic, the answer checked against the document. */
export async function documentedGet(operationId: string, url: string, authorization = basic('admin', 'admin-password')): Promise<unknown> {
  const response = await fetch(url, { headers: { authorization } });
  const body = await response.text();
  expect(validator.checkResponse(operationId, { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
  expect(response.status).toBe(200);
  return JSON.parse(body);
}
