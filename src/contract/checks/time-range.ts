import { defineModelCheck } from './model-check.js';

/**
 * `from`/`to` bound the timestamps (4.4, 4.6): a record outside them, or one inside left out, is a
 * violation; records exactly on a bound left out are a note (inclusive bounds are a gap-fill).
 */
export const timeRange = defineModelCheck('time-range', '`from`/`to` bound the timestamps');
