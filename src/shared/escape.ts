// Text a server or a file chose (a body, a login, a permission, a header value) shown by the kit:
// as HTML it is escaped, so it never becomes markup; on a terminal its control characters are
// shown as escapes, so it never moves the cursor, clears the screen or prints over a verdict.

const HTML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or an attribute's value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML[c]!);

// C0 and C1 controls but line feed and tab (which the kit's outputs use), lone surrogates and
// U+FFFE/U+FFFF (which cannot be in an XML file either).
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text for a terminal (and an XML file): each control character shown as its escape (`\u001b`). */
export const terminalText = (text: string): string => text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
