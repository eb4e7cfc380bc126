import type { Document } from './load.js';
import { messagesOf } from './error-codes.js';

/**
 * The `x-messages` of the document's shared responses (`components.responses`), by the code
 * of each one's example. The control API uses the monitoring API's codes and lists none of its
 * own, so the texts of its refusals live on the response that shows them.
 */
export function responseMessages(document: Document): ReadonlyMap<string, Readonly<Record<string, string>>> {
  const byCode = new Map<string, Readonly<Record<string, string>>>();
  for (const [name, response] of Object.entries(document.components?.responses ?? {}) as [string, Record<string, unknown>][]) {
    if (response['x-messages'] === undefined) continue;
    const example = (response as { content?: Record<string, { example?: { code?: unknown } }> }).content?.['application/json']?.example;
    if (typeof example?.code !== 'string') throw new Error(`Response ${name}: \`x-messages\` needs an example whose code they are messages of.`);
    byCode.set(example.code, { ...byCode.get(example.code), ...messagesOf(response, `Response ${name}`) });
  }
  return byCode;
}
