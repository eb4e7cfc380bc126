// A secret inside a longer text that a server base64-encodes (a whole request body, a Cookie
// header, `Authorization: Basic …` echoed again) does not start on a 3-byte boundary of it, so
// its own base64 is not a substring of the result. Whatever comes before and after it, the
// characters that encode only the secret's bits are: one such core per offset (0, 1 or 2 bytes
// into a group), in both alphabets.

/** Cores shorter than this would mask ordinary text that happens to match. */
const MIN_CORE = 6;

export function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value);
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Character i carries bits 6i..6i+5: the first of the secret's own starts at bit 8·offset, the last ends by its last byte.
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length < MIN_CORE) continue;
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}
