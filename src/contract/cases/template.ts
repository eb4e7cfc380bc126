// `{{name}}` in case values: a whole-string placeholder takes the value as it is, others are interpolated.

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** The variable names a value refers to, with the JSON path where each occurs. */
export function variablesIn(value: unknown, at = ''): { name: string; at: string }[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => ({ name: m[1] ?? '', at }));
  if (Array.isArray(value)) return value.flatMap((v, i) => variablesIn(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => variablesIn(v, at ? `${at}.${k}` : k));
  return [];
}

export function fill<T>(value: T, vars: ReadonlyMap<string, unknown>): T {
  if (typeof value === 'string') {
    const whole = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(value);
    if (whole?.[1] && vars.has(whole[1])) return vars.get(whole[1]) as T;
    return value.replace(PLACEHOLDER, (m, name: string) => (vars.has(name) ? String(vars.get(name)) : m)) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)])) as T;
  return value;
}
