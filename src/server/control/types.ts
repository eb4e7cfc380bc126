import type { Clock } from '../../shared/clock.js';
import type { ErrorFactory } from '../../errors.js';
import type { Spec, SpecValidator } from '../../spec/index.js';
import type { ControlOperationId } from '../../spec/control-types.js';
import type { FaultStore } from '../../store/state.js';
import type { RequestJournal } from '../../store/request-journal.js';
import type { FakeState } from '../../store/state.js';
import type { ControlMessage, ErrorMessage } from '../error-messages.js';
import type { IngestCountsBoard } from '../ingest-counts.js';
import type { SecretMask } from '../journal/secret-mask.js';
import type { RouteHandler } from '../routes.js';
import type { RuntimeConfig } from '../runtime-config.js';

/** What the control API's handlers work on: the whole state of the fake. */
export interface ControlContext {
  readonly state: FakeState;
  readonly config: RuntimeConfig;
  readonly faults: FaultStore;
  /** The last requests the monitoring API answered. */
  readonly journal: RequestJournal;
  /** Masks the secrets of the journal's answer bodies when they are read. */
  readonly secretMask: SecretMask;
  readonly errors: ErrorFactory;
  /** The texts of the monitoring API's errors (`x-messages` of its error list), e.g. for an event log that could not be made. */
  readonly messages: ErrorMessage;
  /** The texts of the control API's own refusals, from its document (`x-messages` of its responses, by code). */
  readonly controlMessages: ControlMessage;
  readonly clock: Clock;
  /** The monitoring API's document, and its validator (records are checked against it). */
  readonly spec: Spec;
  readonly validator: SpecValidator;
  /** Ids for records added without one. */
  readonly nextRecordId: (timestampMs: number) => string;
  /** The counts of the SNMP listener and the MQTT broker, as whatever started them attached them. */
  readonly ingest: Pick<IngestCountsBoard, 'read'>;
}

export type ControlHandler = RouteHandler<ControlContext>;
export type ControlHandlerMap = Partial<Record<ControlOperationId, ControlHandler>>;
