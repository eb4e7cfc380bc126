/** The parts of an Ajv error (or a SchemaError) that say where and what. */
export interface SchemaErrorLike {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Record<string, unknown>;
}

/** Where a schema error points and what is wrong there, in words a person reads. */
export interface ErrorField {
  /** JSON pointer of the field at fault, `/` for the value itself. */
  readonly pointer: string;
  readonly problem: string;
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Names the field an error is about: a missing or unexpected property is named itself
 * (Ajv reports those on the parent object), with a plain problem instead of Ajv's wording.
 */
export function errorField(error: SchemaErrorLike): ErrorField {
  const { instancePath, keyword, params } = error;
  if ((keyword === 'required' || keyword === 'dependentRequired') && typeof params.missingProperty === 'string') {
    return { pointer: `${instancePath}/${escape(params.missingProperty)}`, problem: 'is required' };
  }
  if (keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return { pointer: `${instancePath}/${escape(params.additionalProperty)}`, problem: 'is not allowed' };
  }
  // Ajv's own message for a SchemaError starts with the path; strip it, keep the wording.
  const prefix = `${instancePath || '(root)'} `;
  const raw = error.message ?? 'is invalid';
  const message = raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
  return { pointer: instancePath || '/', problem: message };
}
