// Short names for the generated types of the control API document
// (src/spec/control-api-types.ts, made by `npm run generate:types`).
import type { components, operations } from './control-api-types.js';

type S = components['schemas'];
export type ControlConfig = S['Config'];
export type ConfigUpdate = S['ConfigUpdate'];
export type RateLimitSettings = S['RateLimitSettings'];
export type RateLimitRule = S['RateLimitRule'];
export type RateLimitKey = S['RateLimitKey'];
export type RateLimitPreset = S['RateLimitPreset'];
export type RateLimitUpdate = S['RateLimitUpdate'];
export type Fault = S['Fault'];
export type FaultSpec = S['FaultSpec'];
export type TargetOperationId = S['TargetOperationId'];
export type Snapshot = S['Snapshot'];
export type SnapshotUser = S['SnapshotUser'];
export type StateSummary = S['StateSummary'];
export type SessionSummary = S['SessionSummary'];
export type ActiveBlock = S['ActiveBlock'];
export type Blocks = S['Blocks'];
export type BlocksCleared = S['BlocksCleared'];
export type Cleared = S['Cleared'];
export type EventLogRecordInput = S['EventLogRecordInput'];
export type RequestRecord = S['RequestRecord'];
export type RequestAuth = S['RequestAuth'];
export type DropReason = S['DropReason'];
export type IngestCounts = S['IngestCounts'];
export type IngestSourceRunning = S['IngestSourceRunning'];
export type ControlOperationId = keyof operations;
export type { components as controlComponents, operations as controlOperations, paths as controlPaths } from './control-api-types.js';
