import type { Document } from './load.js';
import { messagesOf } from './error-codes.js';

type Content = { content?: Record<string, { example?: { code?: unknown }; examples?: Record<string, { value?: { code?: unknown } }> }> };

/**
 * The `x-messages` of the document's shared responses, by code: the control API lists no codes of
 * its own, so its refusals' texts live on the response that shows them; each code must be one its examples show.
 */
export function responseMessages(document: Document): ReadonlyMap<string, Readonly<Record<string, string>>> {
  const byCode = new Map<string, Readonly<Record<string, string>>>();
  for (const [name, response] of Object.entries(document.components?.responses ?? {}) as [string, Record<string, unknown>][]) {
    const messages = response['x-messages'];
    if (messages === undefined) continue;
    if (typeof messages !== 'object' || messages === null) throw new Error(`Response ${name}: \`x-messages\` must map codes to messages.`);
    // The codes its JSON examples show (`example`, or each of `examples`).
    const json = (response as Content).content?.['application/json'];
    const shown = new Set([json?.example?.code, ...Object.values(json?.examples ?? {}).map((e) => e.value?.code)].filter((code) => code !== undefined));
    for (const [code, ofCode] of Object.entries(messages)) {
      if (!shown.has(code)) throw new Error(`Response ${name}: \`x-messages\` has messages of ${code}, which none of its examples shows.`);
      byCode.set(code, { ...byCode.get(code), ...messagesOf({ 'x-messages': ofCode }, `Response ${name}, ${code}`) });
    }
  }
  return byCode;
}
