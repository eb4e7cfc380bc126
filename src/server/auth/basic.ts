export interface BasicCredentials {
  readonly login: string;
  readonly password: string;
}

const BASIC = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/** The login and password of an `Authorization: Basic …` header, or undefined when it is malformed. */
export function parseBasic(header: string): BasicCredentials | undefined {
  const encoded = BASIC.exec(header)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
