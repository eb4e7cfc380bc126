import { defineModelCheck } from './model-check.js';

/**
 * `limit` is the maximum number of records (4.4, 4.6; `limit=0` returns none), judged on a list
 * too large to parse by the items counted in it; without `limit`, every record comes back (the
 * document's gap-fill, a note).
 */
export const limitHonoured = defineModelCheck('limit-honoured', '`limit` caps the number of records; without it every record comes', { judgesUnreadBody: true });
