import { defineModelCheck } from './model-check.js';

/** `type=1` returns the SNMP traps and `type=2` the MQTT messages of the selection, all of them (4.4). */
export const typeFilter = defineModelCheck('type-filter', '`type` selects SNMP traps (1) or MQTT messages (2)');
