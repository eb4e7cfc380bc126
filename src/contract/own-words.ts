// Whether a text is found in the runner's own text (run/own-text.ts), looked up fast: a value a
// server chose is held to being one word (secrets.ts), so it can only be found inside one of the
// own text's words, and only the distinct words are kept. Runs of digits compare as one digit:
// counts, seeds, ports and statuses vary from run to run, and a value of a server's that would
// match one of them in some run is not told from them.

// Length of the pieces of the words indexed; a shorter text is looked for in all the words.
const PIECE = 8;

const normal = (text: string): string => text.replace(/\d+/g, '0');

export interface OwnWords {
  add(text: string): void;
  /** Whether the text is found inside a word of the runner's own text. */
  holds(text: string): boolean;
}

export function createOwnWords(): OwnWords {
  const words = new Set<string>();
  const pieces = new Set<string>();
  let all = '';
  return {
    add(text) {
      for (const word of normal(text).split(/\s+/)) {
        if (!word || words.has(word)) continue;
        words.add(word);
        for (let i = 0; i + PIECE <= word.length; i++) pieces.add(word.slice(i, i + PIECE));
        all += ` ${word}`;
      }
    },
    holds(text) {
      const n = normal(text);
      if (n.length >= PIECE && !pieces.has(n.slice(0, PIECE))) return false;
      return all.includes(n);
    },
  };
}
