import { fakeCommand, startServer, type ServerCommand } from '../lib/servers.js';
import { round } from '../lib/stats.js';
import type { LoadSettings, ThroughputFigures } from '../lib/throughput.js';
import { ENDPOINTS, issueToken, measureEndpoint, medianRound } from './throughput.js';

/** The two settings compared: the journal off, and on at its default size. */
const VARIANTS = [
  { key: 'off', label: 'journal off (`--journal-size 0`)', extra: ['--journal-size', '0'] },
  { key: 'on', label: 'journal on (default, 1,000 requests)', extra: [] as string[] },
] as const;
type VariantKey = (typeof VARIANTS)[number]['key'];

export interface JournalEndpointResult {
  readonly key: string;
  readonly label: string;
  readonly variants: Record<VariantKey, { readonly label: string; readonly rounds: ThroughputFigures[]; readonly median: ThroughputFigures }>;
  /** req/s with the journal on over req/s with it off (medians). */
  readonly onOverOff: number;
}

export interface JournalResult {
  readonly settings: LoadSettings & { readonly rounds: number; readonly records: number };
  readonly endpoints: JournalEndpointResult[];
}

/**
 * Throughput of the fake with the request journal off and on, in alternating rounds (off, on;
 * off, on…) so that drift in the machine's load hits both alike.
 */
export async function runJournal(options: {
  readonly settings: LoadSettings;
  readonly rounds: number;
  readonly records: number;
  readonly bin: string;
  readonly log: (line: string) => void;
}): Promise<JournalResult> {
  const { settings, rounds, log } = options;
  const base = fakeCommand(options.records, 'fake', options.bin);
  const figures = new Map<string, ThroughputFigures[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const variant of VARIANTS) {
      const command: ServerCommand = { ...base, name: `fake, ${variant.key}`, args: [...base.args, ...variant.extra] };
      const server = await startServer(command);
      try {
        const token = await issueToken(server.origin);
        for (const endpoint of ENDPOINTS) {
          const result = await measureEndpoint(server, endpoint, token, settings, `journal ${variant.key}`);
          log(`round ${round} journal ${variant.key.padEnd(3)} ${endpoint.key.padEnd(14)} ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, ${result.cpuMicrosPerRequest ?? '?'} µs CPU/request`);
          const key = `${variant.key} ${endpoint.key}`;
          figures.set(key, [...(figures.get(key) ?? []), result]);
        }
      } finally {
        await server.stop();
      }
    }
  }
  const endpoints = ENDPOINTS.map((endpoint): JournalEndpointResult => {
    const variants = Object.fromEntries(
      VARIANTS.map((variant) => {
        const list = figures.get(`${variant.key} ${endpoint.key}`) ?? [];
        return [variant.key, { label: variant.label, rounds: list, median: medianRound(list) }];
      }),
    ) as JournalEndpointResult['variants'];
    return { key: endpoint.key, label: endpoint.label, variants, onOverOff: round(variants.on.median.requestsPerSecond / variants.off.median.requestsPerSecond, 3) };
  });
  return { settings: { ...settings, rounds, records: options.records }, endpoints };
}
