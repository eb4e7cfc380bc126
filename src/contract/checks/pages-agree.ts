import { defineModelCheck } from './model-check.js';

/** A page by `skip`/`limit` is that slice of the ordered selection (4.4, 4.6). */
export const pagesAgree = defineModelCheck('pages-agree', 'Pages by skip/limit are slices of the ordered selection');
