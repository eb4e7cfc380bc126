import { defineModelCheck } from './model-check.js';

/** The limit-block log's boolean filters (4.6): `field=true` keeps exactly the records with a non-empty field; false or absent filters nothing. */
export const booleanFilter = defineModelCheck('boolean-filter', 'Boolean filters keep records with the field (true) or all records (false)');
