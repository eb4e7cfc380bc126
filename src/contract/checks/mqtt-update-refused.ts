import { citeOperation } from '../citations.js';
import { judgeRefusal } from './refusal.js';
import { defineCheck } from './define.js';

/** A payload update of an MQTT record is refused: updates are available only for SNMP messages (4.5). */
export const mqttUpdateRefused = defineCheck({
  name: 'mqtt-update-refused',
  title: 'A payload update of an MQTT record is refused',
  judgesUnreadBody: true,
  run(exchange, context) {
    const op = context.spec.operation(exchange.operationId);
    return judgeRefusal(this, exchange, op, {
      status: 422,
      acceptedCitation: citeOperation(op, 'Updates the payload of one record. Available only for SNMP messages.'),
      what: 'a payload update of an MQTT record',
    });
  },
});
