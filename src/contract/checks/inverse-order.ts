import { defineModelCheck } from './model-check.js';

/** `inverse=true` inverts the order and `inverse=false` does not (4.4). */
export const inverseOrder = defineModelCheck('inverse-order', '`inverse` inverts the order');
