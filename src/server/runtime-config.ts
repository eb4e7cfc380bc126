import type { ConfigUpdate, ControlConfig } from '../spec/control-types.js';
import type { Spec } from '../spec/index.js';
import type { Latency } from './latency.js';
import { settingsOfUpdate } from './rate-limit-presets.js';

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
