// Short names for the generated types of the document (src/spec/api-types.ts, made by
// `npm run generate:types`), so no record shape is written twice.
import type { components, operations } from './api-types.js';

type S = components['schemas'];
export type User = S['User'];
/** A user as a users fixture gives it: the document's User plus a password. */
export type FixtureUser = User & { password: string };
export type EventLogRecord = S['EventLogRecord'];
export type SnmpTrapRecord = S['SnmpTrapRecord'];
export type MqttMessageRecord = S['MqttMessageRecord'];
export type SnmpTrapPayload = S['SnmpTrapPayload'];
export type MqttMessagePayload = S['MqttMessagePayload'];
export type SnmpVarbind = S['SnmpVarbind'];
export type Entity = S['Entity'];
export type BlockedRequest = S['BlockedRequest'];
export type PayloadUpdate = S['PayloadUpdate'];
export type SessionCredentials = S['SessionCredentials'];
export type ApiErrorBody = S['Error'];
export type ErrorCode = S['ErrorCode'];
export type ErrorDetail = S['ErrorDetail'];
export type EventLogQueryParams = NonNullable<operations['getEventLog']['parameters']['query']>;
export type LimitBlockLogQueryParams = NonNullable<operations['getLimitBlockLog']['parameters']['query']>;
export type OperationId = keyof operations;
export type { components, operations, paths } from './api-types.js';
