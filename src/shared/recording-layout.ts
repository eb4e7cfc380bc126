// The files of a recording (`monitoring-api-kit record --out DIR`), which `serve --recording DIR`
// reads back: the writer and the reader share these names and the manifest's shape.

export const RECORDING_FILES = {
  manifest: 'manifest.json',
  /** Valid event log records: a fixture file as `serve --fixture` reads it. */
  events: 'events.json',
  /** Records that break the document but that the fake can hold (`record --keep-invalid`). */
  keptInvalid: 'events-kept-invalid.json',
  /** The blocked-request records of the block log. */
  blocks: 'limit-block-log.json',
  /** The recorded user with a placeholder password: a users file as `serve --users` reads it. */
  users: 'users.json',
} as const;

/** One record the document refused, with its first problem. */
export interface InvalidRecordNote {
  readonly log: 'event-log' | 'limit-block-log';
  readonly _id?: string;
  readonly timestamp?: number;
  readonly problem: string;
  /** Kept in events-kept-invalid.json (`--keep-invalid`), or left out. */
  readonly kept: boolean;
}

export interface RecordingManifest {
  readonly format: 1;
  /** True once every file is written; a folder without it, or with false, is not a whole recording. */
  readonly complete: boolean;
  readonly kit: { readonly name: string; readonly version: string };
  /** The OpenAPI document the records were checked against. */
  readonly document: { readonly title: string; readonly version: string };
  /** The server recorded: scheme, host, port and path, never credentials or a query. */
  readonly source: string;
  readonly recordedAt: string;
  /** The bounds asked of the server, ms since the epoch (inclusive); `from` absent without --since. */
  readonly timeRange: { readonly from?: number; readonly to: number };
  /** The oldest and newest timestamps among the recorded event log and block log records. */
  readonly recordsSpan?: { readonly first: number; readonly last: number };
  readonly counts: {
    readonly events: number;
    readonly invalidKept: number;
    readonly invalidSkipped: number;
    readonly blocks: number;
    readonly users: number;
  };
  /** --max-records stopped the event log before its end. */
  readonly maxRecordsReached: boolean;
  readonly anonymized: boolean;
  /** Whether the block log was recorded, or why not (e.g. the user may not read it). */
  readonly blockLog: 'recorded' | string;
  /** The records the document refused (at most the first 1,000). */
  readonly invalid: readonly InvalidRecordNote[];
  readonly files: Partial<Record<Exclude<keyof typeof RECORDING_FILES, 'manifest'>, string>>;
}
