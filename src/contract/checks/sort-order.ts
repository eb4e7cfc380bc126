import { defineModelCheck } from './model-check.js';

/**
 * Records come in the documented order: by `sortField` in `sortDirection` (asc by default, 4.4)
 * with ties by `_id` and MongoDB's order of values (the document's), or, for the block log, by
 * timestamp ascending (the document's). What the spec states is a violation; the rest a note.
 */
export const sortOrder = defineModelCheck('sort-order', 'Records come in the documented order');
