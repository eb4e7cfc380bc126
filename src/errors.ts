import { errorCatalog, type Document } from './spec/index.js';
import type { ApiErrorBody, ErrorCode, ErrorDetail } from './spec/types.js';

/** An error the API answers with: a code of the document's named list and the status the list gives it. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly details?: readonly ErrorDetail[];
  readonly permission?: string;
  /** Extra response headers (e.g. `Allow` with 405). */
  readonly headers?: Readonly<Record<string, string>>;

  constructor(readonly code: ErrorCode, readonly status: number, message: string, extra: ApiErrorExtra = {}) {
    // An answer the API gives, not a fault: nothing reads its stack, and capturing one cost more
    // than the rest of a refused request (a flood of 401s or 429s pays it on every request).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    if (extra.details?.length) this.details = extra.details;
    if (extra.permission !== undefined) this.permission = extra.permission;
    if (extra.headers) this.headers = extra.headers;
  }

  /** The error of an `Error` body given whole (an injected fault's, an example of the document), with the body's status unless another is given. */
  static fromBody(body: ApiErrorBody, status = body.status, headers?: Readonly<Record<string, string>>): ApiError {
    return new ApiError(body.code, status, body.message, { details: body.details, permission: body.permission, headers });
  }

  #text: string | undefined;

  /** The body's JSON text, made once: an error answered again and again (a 429 of a flood) is written out once. */
  get text(): string {
    return (this.#text ??= JSON.stringify(this.toBody()));
  }

  /** The JSON body of the document's `Error` schema. */
  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { status: this.status, code: this.code, message: this.message };
    if (this.details) body.details = [...this.details];
    if (this.permission !== undefined) body.permission = this.permission;
    return body;
  }
}

export type ApiErrorExtra = Pick<ApiError, 'details' | 'permission' | 'headers'>;

/** Makes an ApiError whose status comes from the document's `x-status` for the code. */
export type ErrorFactory = (code: ErrorCode, message: string, extra?: ApiErrorExtra) => ApiError;

/**
 * The factory of every error the server sends. Statuses are read from the document's
 * error list once; a code missing from the list is a programming error and throws at once.
 */
export function createErrorFactory(document: Document): ErrorFactory {
  const catalog = errorCatalog(document);
  return (code, message, extra) => {
    const entry = catalog.get(code);
    if (!entry) throw new Error(`The document's error list has no code "${code}".`);
    return new ApiError(code, entry.status, message, extra);
  };
}
