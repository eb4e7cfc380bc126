// Whether a text is found in the runner's own text (run/own-text.ts), looked up fast: a value a
// server chose is held to being one word (secrets.ts), so it can only be found inside one of the
// own text's words, and only the distinct words are kept. Runs of digits compare as one digit:
// counts, ports and statuses vary from run to run, and a value of a server's that would match one
// of them in some run is not told from them. A value of digits only is the exception: it is
// found only where the own text holds those very digits (the run's seed is added to it), so a
// numeric session id or token stays masked; as a mask it can cover only a number of 8 digits or
// more, which the runner's own lines hold only in the seed.

// Length of the pieces of the words indexed; a shorter text is looked for in all the words.
const PIECE = 8;

const normal = (text: string): string => text.replace(/\d+/g, '0');

export interface OwnWords {
  add(text: string): void;
  /** Whether the text is found inside a word of the runner's own text. */
  holds(text: string): boolean;
}

const DIGITS = /^\d+$/;

export function createOwnWords(): OwnWords {
  const words = new Set<string>();
  const pieces = new Set<string>();
  const numbers = new Set<string>();
  let all = '';
  return {
    add(text) {
      for (const number of text.match(/\d+/g) ?? []) numbers.add(number);
      for (const word of normal(text).split(/\s+/)) {
        if (!word || words.has(word)) continue;
        words.add(word);
        for (let i = 0; i + PIECE <= word.length; i++) pieces.add(word.slice(i, i + PIECE));
        all += ` ${word}`;
      }
    },
    holds(text) {
      if (DIGITS.test(text)) {
        for (const number of numbers) if (number.includes(text)) return true;
        return false;
      }
      const n = normal(text);
      if (n.length >= PIECE && !pieces.has(n.slice(0, PIECE))) return false;
      return all.includes(n);
    },
  };
}
