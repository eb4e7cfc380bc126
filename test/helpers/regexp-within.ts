import vm from 'node:vm';

// JavaScript's own regexes backtrack: for some patterns the time of `test` multiplies with each
// character of the text (a case of eight characters can take minutes, one more several times as
// long). A test that asks them for the expected answer bounds how long it waits: vm's `timeout`
// stops a script that runs too long, and with it a RegExp that is matching.

const context = vm.createContext({});
// With `u`, ECMAScript tries a match only where a code point begins; V8 also tries the middle of
// a surrogate pair, where an empty match can succeed (`/\B/u` on "a😀a" matches at 2). The answer
// expected is ECMAScript's: with `u`, a match must begin at one of the text's code point boundaries.
const script = new vm.Script(`texts.map((text) => {
  if (!regex.unicode) return regex.test(text);
  const sticky = new RegExp(regex.source, regex.flags.replace('g', '') + 'y');
  for (let i = 0; i <= text.length; i++) {
    const before = text.charCodeAt(i - 1);
    const after = text.charCodeAt(i);
    if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) continue;
    sticky.lastIndex = i;
    if (sticky.test(text)) return true;
  }
  return false;
})`);

/** `regex.test` of each text (as ECMAScript specifies it, above), or undefined when JavaScript needs more than `ms` for them all. */
export function testWithin(regex: RegExp, texts: readonly string[], ms: number): boolean[] | undefined {
  Object.assign(context, { regex, texts });
  try {
    return script.runInContext(context, { timeout: ms }) as boolean[];
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw e;
  } finally {
    Object.assign(context, { regex: undefined, texts: undefined });
  }
}
