// Reporters listen to a run's events and write what they saw.
import type { RunEvent, RunResult } from '../run/results.js';

export interface Reporter {
  onEvent(event: RunEvent): void;
  /** Writes the report; resolves when it is written. */
  finish(result: RunResult): Promise<void>;
}

export type Write = (text: string) => void;
