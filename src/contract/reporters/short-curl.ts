// A curl line a person reads: a long body is cut to its head and says its size, so one finding
// does not fill a screen. The reporters get text already masked (masked.ts), so a cut never
// leaves part of a secret that a whole text would have hidden.
import { quote } from '../curl.js';

const BODY = / --data-raw '((?:[^']|'\\'')*)'$/;
const HEAD = 160;

export function shortCurl(curl: string): string {
  const match = BODY.exec(curl);
  if (!match) return curl;
  const body = match[1]!.replaceAll(`'\\''`, "'");
  if (body.length <= HEAD * 2) return curl;
  const head = /[\ud800-\udbff]$/.test(body.slice(0, HEAD)) ? body.slice(0, HEAD - 1) : body.slice(0, HEAD);
  return `${curl.slice(0, match.index)} --data-raw ${quote(`${head}…`)} (body of ${Buffer.byteLength(body).toLocaleString('en-US')} bytes, shortened)`;
}
