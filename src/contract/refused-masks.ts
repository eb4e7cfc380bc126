// The values a server chose that the runner did not take as masks (secrets.ts, `addIssued`),
// counted by why. Such a value may show unmasked where the server echoes it, so every report says
// how many there were and why, by category only: neither the value nor any encoding of it is
// shown, and only a bounded number of them is kept to count each once.

/** Why a value a server chose is no mask, as a report says it. */
export const REFUSAL_REASONS = {
  short: 'too short',
  words: 'not one word',
  own: "a word the runner's own text holds",
  number: "a number the runner's own text holds",
} as const;

export type RefusalReason = keyof typeof REFUSAL_REASONS;

/**
 * Distinct values kept to count each once. A server setting new cookies on every answer could
 * otherwise make the runner keep them all; past this, a value is counted as new each time.
 */
const MAX_KEPT = 1000;

export interface RefusedMasks {
  /** A value the server chose is not used as a mask, for this reason. */
  add(value: string, reason: RefusalReason): void;
  /** The note every report shows, or undefined when every value the server chose is a mask. */
  note(): string | undefined;
}

/** The note for these counts by reason (own-text.ts writes it with every reason, as the runner's own words). */
export function refusedNote(counts: Readonly<Partial<Record<RefusalReason, number>>>): string | undefined {
  const reasons = (Object.keys(REFUSAL_REASONS) as RefusalReason[]).filter((reason) => (counts[reason] ?? 0) > 0);
  if (reasons.length === 0) return undefined;
  const total = reasons.reduce((sum, reason) => sum + (counts[reason] ?? 0), 0);
  const why = reasons.map((reason) => `${REFUSAL_REASONS[reason]}: ${counts[reason] ?? 0}`).join('; ');
  return `${total} secret value(s) the server chose were not used as masks and may show unmasked where the server echoes them (${why})`;
}

export function createRefusedMasks(): RefusedMasks {
  const seen = new Set<string>();
  const counts: Partial<Record<RefusalReason, number>> = {};
  return {
    add(value, reason) {
      if (seen.has(value)) return;
      if (seen.size < MAX_KEPT) seen.add(value);
      counts[reason] = (counts[reason] ?? 0) + 1;
    },
    note: () => refusedNote(counts),
  };
}
