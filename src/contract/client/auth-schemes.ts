// Which security scheme of the document each way of authenticating uses, valid or deliberately wrong.
import type { AuthMode } from '../types.js';

const SCHEMES: Readonly<Record<Exclude<AuthMode, 'none'>, string>> = {
  basic: 'basicAuth',
  'wrong-basic': 'basicAuth',
  'wrong-password': 'basicAuth',
  'wrong-empty-password': 'basicAuth',
  session: 'sessionCookie',
  'wrong-session': 'sessionCookie',
  'wrong-ended-session': 'sessionCookie',
  token: 'apiToken',
  'wrong-token': 'apiToken',
  'wrong-revoked-token': 'apiToken',
  'auth-token': 'authTokenQuery',
  'wrong-auth-token': 'authTokenQuery',
  'wrong-revoked-auth-token': 'authTokenQuery',
};

/** The security scheme an auth mode uses; undefined for none. */
export function schemeOf(auth: AuthMode): string | undefined {
  return auth === 'none' ? undefined : SCHEMES[auth];
}

export const isWrongCredentials = (auth: AuthMode): boolean => auth.startsWith('wrong-');

/** The ways of authenticating with a scheme, valid first, then the deliberately wrong ones. */
export function authModesOf(scheme: string): Exclude<AuthMode, 'none'>[] {
  return (Object.keys(SCHEMES) as Exclude<AuthMode, 'none'>[]).filter((auth) => SCHEMES[auth] === scheme);
}
