import { request as httpRequest } from 'node:http';

export interface UploadAnswer {
  /** The answer's status, or 0 when none was seen (the connection failed first). */
  readonly status: number;
  /** The error code of a failed connection (EPIPE, ECONNRESET), when there was one. */
  readonly error?: string;
  readonly ms: number;
}

/**
 * Sends a request on its own connection with the body in pieces (16 KiB), as a streaming
 * upload does, and stops writing once an answer arrives; resolves when the answer has been read.
 */
export function streamingUpload(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string }): Promise<UploadAnswer> {
  const body = Buffer.from(init.body ?? '');
  return new Promise((resolve) => {
    const t0 = performance.now();
    let status = 0;
    const headers = { ...init.headers, ...(body.length > 0 ? { 'content-length': String(body.length) } : {}) };
    const req = httpRequest(url, { method: init.method ?? 'GET', headers, agent: false }, (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.once('end', () => resolve({ status, ms: performance.now() - t0 }));
    });
    req.once('error', (error: NodeJS.ErrnoException) => {
      if (status === 0) resolve({ status: 0, error: error.code ?? 'error', ms: performance.now() - t0 });
    });
    const writeFrom = (offset: number): void => {
      if (status !== 0 || req.destroyed) return;
      if (offset >= body.length) {
        req.end();
        return;
      }
      const next = offset + 16 * 1024;
      if (req.write(body.subarray(offset, next))) setImmediate(() => writeFrom(next));
      else req.once('drain', () => writeFrom(next));
    };
    writeFrom(0);
  });
}
