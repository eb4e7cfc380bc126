import type { Clock } from '../shared/clock.js';
import type { Fault, FaultSpec, TargetOperationId } from '../spec/control-types.js';
import { createObjectIdGenerator } from '../shared/object-id.js';

/** Injected faults: operations of the API that answer an error instead of doing their work. */
export interface FaultStore {
  /** Adds a validated fault; `status` and `message` come from its `body`, else fall back to the given defaults. */
  inject(spec: FaultSpec): Fault;
  /** The faults in force, oldest first (copies). */
  list(): Fault[];
  /** Removes every fault, or those of one operation; returns how many. */
  clear(operationId?: TargetOperationId): number;
  delete(id: string): boolean;
  /**
   * The fault that answers this call of the operation, if any, counted as used: the oldest
   * counted fault of the operation, or the oldest share fault whose draw hits, whichever
   * comes first. A counted fault is removed after its last answer.
   */
  take(operationId: string): Fault | undefined;
  /** Replaces every fault (restoring a snapshot). */
  restore(faults: readonly Fault[]): void;
  readonly size: number;
  /** The most faults in force at once; `inject` is not called beyond it (the caller refuses). */
  readonly capacity: number;
}

export interface FaultStoreOptions {
  readonly clock: Clock;
  /** Uniform in [0, 1); the fake's seeded source, so share faults repeat with the seed. */
  readonly random: () => number;
  readonly defaults: { readonly status: number; readonly message: string };
  readonly generateId?: (timestampMs: number) => string;
  /** The most faults in force at once (default: no limit). */
  readonly capacity?: number;
}

export function createFaultStore(options: FaultStoreOptions): FaultStore {
  const { clock, random, defaults } = options;
  const nextId = options.generateId ?? createObjectIdGenerator();
  let faults: Fault[] = [];
  const copy = (fault: Fault): Fault => structuredClone(fault);

  return {
    inject(spec) {
      const fault: Fault = {
        id: nextId(clock.now()),
        operationId: spec.operationId,
        action: spec.action ?? 'error',
        ...(spec.delayMs === undefined ? {} : { delayMs: structuredClone(spec.delayMs) }),
        ...(spec.body === undefined ? {} : { body: structuredClone(spec.body) }),
        status: spec.status ?? spec.body?.status ?? defaults.status,
        message: spec.body?.message ?? spec.message ?? defaults.message,
        ...(spec.count !== undefined ? { remaining: spec.count } : { probability: spec.probability ?? 1 }),
        hits: 0,
        createdAt: clock.now(),
      };
      faults.push(fault);
      return copy(fault);
    },
    list: () => faults.map(copy),
    clear(operationId) {
      const before = faults.length;
      faults = operationId === undefined ? [] : faults.filter((f) => f.operationId !== operationId);
      return before - faults.length;
    },
    delete(id) {
      const before = faults.length;
      faults = faults.filter((f) => f.id !== id);
      return faults.length < before;
    },
    take(operationId) {
      for (const fault of faults) {
        if (fault.operationId !== operationId) continue;
        if (fault.remaining === undefined && !(random() < (fault.probability ?? 0))) continue;
        fault.hits++;
        const answered = copy(fault);
        if (fault.remaining !== undefined && --fault.remaining <= 0) faults = faults.filter((f) => f !== fault);
        return answered;
      }
      return undefined;
    },
    restore(list) {
      faults = list.map(copy);
    },
    get size() {
      return faults.length;
    },
    capacity: options.capacity ?? Infinity,
  };
}
