import { readFile } from 'node:fs/promises';
import type { CreateFakeOptions } from '../fake/create-fake.js';
import { defaultEventFixtures } from '../server/options.js';
import type { RateLimitChoice } from '../server/options.js';
import { controlApiPath, createSpecValidator, loadSpec } from '../spec/index.js';
import type { RateLimitRule } from '../spec/control-types.js';
import type { ServeFlags } from './serve-flags.js';

/** A problem with a flag's value, told in one line. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

const PRESETS = new Set(['lenient', 'strict', 'off']);

/**
 * `--rate-limit`: a preset name, or a JSON file holding rules, `{"rules": [...]}` or
 * `{"preset": "strict"}`, checked against the control API document's schemas.
 */
export async function readRateLimit(value: string): Promise<RateLimitChoice> {
  if (PRESETS.has(value)) return value as RateLimitChoice;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(value, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new FlagError(`--rate-limit ${value}: not lenient, strict or off, and not a readable JSON file of rules (${reason})`);
  }
  const update = Array.isArray(parsed) ? { rules: parsed } : parsed;
  const validator = createSpecValidator(await loadSpec(controlApiPath));
  const problems = validator.validateNamed('RateLimitUpdate', update);
  if (problems.length > 0) {
    const first = validator.validateNamed('RateLimitRules', (update as { rules?: unknown }).rules)[0] ?? problems[0];
    throw new FlagError(`--rate-limit ${value}: expected rules {key, limit, windowSeconds, blockSeconds} or {"preset": ...}: ${first?.message ?? 'invalid'}`);
  }
  const checked = update as { rules: RateLimitRule[] } | { preset: 'lenient' | 'strict' };
  return 'preset' in checked ? checked.preset : checked.rules;
}

/** The options of the fake that the flags set. */
export async function fakeOptionsFromFlags(flags: ServeFlags): Promise<CreateFakeOptions> {
  return {
    seed: flags.seed,
    ...(flags.records === undefined ? {} : { records: flags.records }),
    ...(flags.recording === undefined ? {} : { recording: flags.recording }),
    // The dev server's data ends when it starts; a recording keeps its own times unless asked.
    ...(flags.anchor === undefined && flags.recording !== undefined ? {} : { anchor: flags.anchor ?? 'now' }),
    eventFixtures: [...defaultEventFixtures(flags.recording), ...flags.fixture],
    ...(flags.users !== undefined ? { users: flags.users } : {}),
    tokenAuthEnabled: flags.tokenAuth,
    requireCsrf: flags.requireCsrf,
    latencyMs: flags.latency,
    honourPrefer: flags.prefer,
    watch: flags.watch,
    rateLimit: await readRateLimit(flags.rateLimit),
    ...(flags.corsOrigin ? { corsOrigins: flags.corsOrigin } : {}),
    controlFromAnyAddress: flags.controlAnyAddress,
    // --host is answered as the fake's listen answers the host it listens on (unless 0.0.0.0 or ::).
    controlHosts: flags.controlHost ?? [],
    allowedHosts: flags.allowedHost ?? [],
    connections: { maxConnections: flags.maxConnections },
    journalSize: flags.journalSize,
    // auto: pretty for a person at a terminal, JSON for a pipe or a file (the cheap path).
    logger: { level: flags.logLevel, format: flags.logFormat === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : flags.logFormat },
    liveRate: flags.liveRate,
    ...(flags.snmpPort !== undefined ? { snmpPort: flags.snmpPort, snmpCommunity: flags.snmpCommunity } : {}),
    ...(flags.mqttPort !== undefined ? { mqttPort: flags.mqttPort } : {}),
    ingestHost: flags.host,
  };
}
