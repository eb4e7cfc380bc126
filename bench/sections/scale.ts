export interface ScaleQueryResult {
  readonly key: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly returned: number;
}
export interface ScaleSize {
  readonly records: number;
  readonly seedMs: number;
  readonly startupMs: number;
  readonly rssBytes: number;
  readonly queries: ScaleQueryResult[];
}
export interface ScaleResult {
  readonly runs: number;
  readonly warmup: number;
  readonly queryLabels: string[];
  readonly queries: { readonly key: string; readonly label: string; readonly example: string }[];
  readonly sizes: ScaleSize[];
  readonly notes: string[];
}

export async function runScale(_options: { sizes: number[]; runs: number; log: (line: string) => void }): Promise<ScaleResult> {
  throw new Error('scale: not yet');
}
