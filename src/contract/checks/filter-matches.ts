import { defineModelCheck } from './model-check.js';

/**
 * A `filter` returns exactly the records it matches in MongoDB's language. Plain `{field: value}`
 * equality is the spec's "filter for the records" (a violation); operators, and a refused
 * filter, are the document's filter language (a note).
 */
export const filterMatches = defineModelCheck('filter-matches', 'A filter returns exactly the matching records');
