// What a server sends reaches reports as text: bodies, JSON keys, header values quoted in a
// finding. Control characters in it would act on the terminal that shows the console report
// (clear the findings, move the cursor, print a forged verdict over the real one), and C0
// controls, lone surrogates and U+FFFE/U+FFFF cannot be in an XML file (JUnit). Each is shown
// as its escape instead (`\u001b`); line feeds and tabs, which the reports use, stay.
import type { Secrets } from '../secrets.js';

const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A text as the reports and the command's output show it: every known secret masked, then every control character escaped. */
export const shownText =
  (secrets: Pick<Secrets, 'mask'>) =>
  (text: string): string =>
    printable(secrets.mask(text));
