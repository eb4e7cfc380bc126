// Which security scheme of the document each way of authenticating uses, valid or deliberately wrong.
import type { AuthMode } from '../types.js';

const SCHEMES: Readonly<Record<Exclude<AuthMode, 'none'>, string>> = {
  basic: 'basicAuth',
  'wrong-basic': 'basicAuth',
  session: 'sessionCookie',
  'wrong-session': 'sessionCookie',
  token: 'apiToken',
  'wrong-token': 'apiToken',
  'auth-token': 'authTokenQuery',
  'wrong-auth-token': 'authTokenQuery',
};

/** The security scheme an auth mode uses; undefined for none. */
export function schemeOf(auth: AuthMode): string | undefined {
  return auth === 'none' ? undefined : SCHEMES[auth];
}

export const isWrongCredentials = (auth: AuthMode): boolean => auth.startsWith('wrong-');

/** The deliberately wrong credentials of a scheme, for the refusal checks. */
export function wrongAuthOf(scheme: string): AuthMode | undefined {
  return (Object.keys(SCHEMES) as Exclude<AuthMode, 'none'>[]).find((auth) => isWrongCredentials(auth) && SCHEMES[auth] === scheme);
}
