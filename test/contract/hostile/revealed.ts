// What a report reveals to a reader who decodes it: the secrets found in its text as it is and
// after one or two layers of decoding (percent- and form-decoding, HTML/XML entities, hex, and
// base64 or base64url of any run of their characters, at any offset), in any order.

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The texts one layer of decoding makes of a text. */
function decodings(text: string): string[] {
  const out = [
    text.replace(/%[0-9a-f]{2}/gi, (m) => String.fromCharCode(parseInt(m.slice(1), 16))),
    text.replace(/&(amp|lt|gt|quot|apos);|&#(\d+);|&#x([0-9a-f]+);/gi, (m, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
      name ? (ENTITIES[name.toLowerCase()] ?? m) : String.fromCodePoint(dec ? Number(dec) : parseInt(hex ?? '0', 16)),
    ),
  ];
  try {
    out.push(decodeURIComponent(text.replace(/\+/g, ' ')));
  } catch {
    // Text with a stray % is not one encoded string; the first decoding takes it escape by escape.
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let offset = 0; offset < 4; offset++) {
      out.push(Buffer.from(run.slice(offset), 'base64').toString('utf8'), Buffer.from(run.slice(offset), 'base64url').toString('utf8'));
    }
  }
  for (const run of text.match(/[0-9a-f]{8,}/gi) ?? []) for (const offset of [0, 1]) out.push(Buffer.from(run.slice(offset), 'hex').toString('utf8'));
  return out;
}

/** A function listing the secrets a text reveals, as they are or under up to two layers of encoding. */
export function revealer(secrets: readonly string[]): (text: string) => string[] {
  return (text) => {
    const found = new Set<string>();
    let layer = new Set([text]);
    for (let depth = 0; depth <= 2; depth++) {
      for (const candidate of layer) for (const s of secrets) if (candidate.includes(s)) found.add(s);
      if (depth === 2) break;
      const next = new Set<string>();
      for (const candidate of layer) for (const decoded of decodings(candidate)) if (decoded !== candidate) next.add(decoded);
      layer = next;
    }
    return [...found];
  };
}
