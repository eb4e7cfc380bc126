import type { components } from '../spec/control-api-types.js';
import type { ConfigUpdate, ControlConfig } from '../spec/control-types.js';
import type { Spec } from '../spec/index.js';
import type { ErrorDetail } from '../spec/types.js';
import { settingsOfUpdate } from './rate-limit-presets.js';

/** Milliseconds: fixed, or `[min, max]` drawn for each answer (the control document's `Latency`). */
export type Latency = components['schemas']['Latency'];

/** The wait of one answer: the fixed value, or a draw from `[min, max]` (both inclusive) by the seeded source. */
export function drawLatency(latency: Latency | undefined, random: () => number): number {
  if (latency === undefined) return 0;
  if (typeof latency === 'number') return latency;
  const [min = 0, max = min] = latency;
  return min + Math.floor(random() * (max - min + 1));
}

/** A `[min, max]` whose min is above its max, as a detail of a refused body (the schema cannot say it). */
export function rangeProblem(latency: Latency | undefined, name: string): ErrorDetail[] {
  return Array.isArray(latency) && (latency[0] ?? 0) > (latency[1] ?? 0) ? [{ location: 'body', name, problem: 'must be [min, max] with min not above max' }] : [];
}

/** Waits `ms`; injected in tests so nothing sleeps. */
export type Sleep = (ms: number) => Promise<void>;

/**
 * The configuration of the fake that can change while it runs (the control API's `Config`):
 * the guard, the latency hook and the rate limiter read it on every request, so a change
 * takes effect for the next one.
 */
export interface RuntimeConfig {
  /** The configuration in force (a copy). */
  get(): ControlConfig;
  readonly authTokenEnabled: boolean;
  readonly requireCsrf: boolean;
  readonly latencyMs: number;
  /** The latency of an operation: its own entry of `operationLatencyMs`, else `latencyMs`. */
  latencyOf(operationId: string | undefined): Latency;
  readonly rateLimit: ControlConfig['rateLimit'];
  /** Applies a validated update; returns the configuration now in force. */
  update(update: ConfigUpdate): ControlConfig;
  /** Replaces the whole configuration (restoring a snapshot). */
  replace(config: ControlConfig): void;
  /** Back to the start-up configuration. */
  reset(): void;
  /** Called after the rate-limit rules change. */
  onRateLimitChange(listener: (settings: ControlConfig['rateLimit']) => void): void;
}

/** A copy, with every field the control API shows (a snapshot of an older fake may lack some). */
const copy = (config: ControlConfig): ControlConfig => structuredClone({ ...config, operationLatencyMs: config.operationLatencyMs ?? {} });

/** `controlSpec` gives the rules of the presets an update may name. */
export function createRuntimeConfig(startUp: ControlConfig, controlSpec: Spec): RuntimeConfig {
  let current = copy(startUp);
  const listeners: ((settings: ControlConfig['rateLimit']) => void)[] = [];
  const set = (next: ControlConfig) => {
    const rulesChanged = JSON.stringify(next.rateLimit) !== JSON.stringify(current.rateLimit);
    current = copy(next);
    if (rulesChanged) for (const listener of listeners) listener(copy(current).rateLimit);
  };
  return {
    get: () => copy(current),
    get authTokenEnabled() {
      return current.authTokenEnabled;
    },
    get requireCsrf() {
      return current.requireCsrf;
    },
    get latencyMs() {
      return current.latencyMs;
    },
    latencyOf(operationId) {
      return (operationId === undefined ? undefined : current.operationLatencyMs?.[operationId]) ?? current.latencyMs;
    },
    get rateLimit() {
      return copy(current).rateLimit;
    },
    update(update) {
      const { rateLimit, ...rest } = update;
      const next: ControlConfig = { ...current, ...rest };
      if (rateLimit) next.rateLimit = settingsOfUpdate(rateLimit, controlSpec);
      set(next);
      return copy(current);
    },
    replace: (config) => set(config),
    reset: () => set(startUp),
    onRateLimitChange: (listener) => void listeners.push(listener),
  };
}
