// The package entry: `import { createFake } from 'monitoring-api-kit'`.
export { createFake, type CreateFakeOptions, type Fake } from './fake/create-fake.js';
export type { RequestFilter } from './fake/control-methods.js';
export type { FakeUrls } from './fake/create-fake.js';
export type { RecordSource } from './fake/record-sources.js';
export type { SeededUser } from './fake/create-fake.js';
export { ControlApiError, type ControlCall, type ControlRequest, type ControlResult } from './fake/control-methods.js';
export { buildFake, type FakeApp, type FakeHandle } from './server/build.js';
export type { FakeOptions, FakeLoggerOptions } from './server/options.js';
export { LISTEN_BACKLOG, type ConnectionLimits } from './server/options.js';
export type { RateLimitChoice } from './server/options.js';
export type { FeedTimers } from './live/live-feed.js';
export { createManualClock, systemClock, type Clock, type ManualClock } from './shared/clock.js';
export { controlApiPath, createSpecValidator, loadSpec, monitoringApiPath, type Spec, type SpecValidator } from './spec/index.js';
// Types of the monitoring API, generated from its document (for openapi-fetch and the like).
export type {
  ApiErrorBody,
  BlockedRequest,
  components,
  Entity,
  ErrorCode,
  EventLogQueryParams,
  EventLogRecord,
  LimitBlockLogQueryParams,
  MqttMessageRecord,
  operations,
  OperationId,
  paths,
  PayloadUpdate,
  SessionCredentials,
  SnmpTrapRecord,
  User,
} from './spec/types.js';
// Types of the control API (`/__control`), generated from its document.
export type * from './spec/control-types.js';
