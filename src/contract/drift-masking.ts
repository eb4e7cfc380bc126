// The values a drift shows are pieces of bodies, so they follow the rule of every body a report
// shows: a value under a field named like a secret, and a string shaped like a password hash,
// are masked. The rule needs no list of secrets: these are the server's, not the run's.
import type { Drift } from './drift.js';
import { isSecretKey, maskSecretFields } from './secrets.js';

const MASKED = '"***"';

export function maskedDrift(drift: Drift): Drift {
  // A status, a field present or missing, and the names of JSON types show no value.
  if (drift.kind === 'status' || drift.kind === 'field-missing' || drift.kind === 'type') return drift;
  const underSecret = drift.path.split('/').some((segment) => isSecretKey(segment));
  const shown = (value: string): string => (underSecret ? MASKED : maskSecretFields(value));
  return { ...drift, first: shown(drift.first), second: shown(drift.second) };
}
