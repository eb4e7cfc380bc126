import vm from 'node:vm';

// JavaScript's own regexes backtrack: for some patterns the time of `test` multiplies with each
// character of the text (a case of eight characters can take minutes, one more several times as
// long). A test that asks them for the expected answer bounds how long it waits: vm's `timeout`
// stops a script that runs too long, and with it a RegExp that is matching.

const context = vm.createContext({});
const script = new vm.Script('texts.map((text) => regex.test(text))');

/** `regex.test` of each text, or undefined when JavaScript needs more than `ms` for them all. */
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
