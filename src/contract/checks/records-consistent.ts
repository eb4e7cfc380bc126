import { defineModelCheck } from './model-check.js';

/**
 * The log is stored data (spec 6): the window read oldest first and newest first holds the
 * same records, and every answer inside it gives those records unchanged.
 */
export const recordsConsistent = defineModelCheck('records-consistent', 'Answers give the records of the window as read whole');
