export { EventLogStore, type UpdatePayloadResult } from './event-log.js';
export {
  parseEventLogQuery, parseFilter, type EventLogQuery, type ParseResult, type QueryProblem, type RawEventLogQueryParams,
} from './event-log-query.js';
export { FilterTooCostlyError, type QueryLimits } from './event-log-select.js';
export { FILTER_OPERATORS, filterCost, filterProblem, type Filter, type FilterOperator } from './filter-check.js';
export { REGEX_OPTIONS, regexProblem } from './regex-safety.js';
export { compareValues, sortKey } from '../shared/mongo-order.js';
export { BlockLogStore, parseLimitBlockLogQuery, type RawLimitBlockLogQueryParams } from './block-log.js';
export {
  parseRateLimitConfig, RATE_LIMIT_KEYS, rateLimitPresets, rateLimitSettings, rulesProblems,
  type RateLimitConfigResult, type RateLimitKey, type RateLimitPreset, type RateLimitRule, type RateLimitSettings,
} from './rate-limit-rules.js';
export {
  createRateLimiter, type ActiveBlock, type RateLimitDecision, type RateLimitedRequest, type RateLimiter, type RateLimiterOptions,
} from './rate-limiter.js';
export { createDataState, type DataState, type DataStateOptions } from './data-state.js';
export { createObjectIdGenerator, formatObjectId } from '../shared/object-id.js';
