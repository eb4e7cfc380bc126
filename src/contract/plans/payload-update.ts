// A payload update persists and is put back; an MQTT record's payload cannot be updated.
import type { Plan } from './plan.js';
import { sampleRecord } from './plan.js';
import { readRecord, restoreText, textOf } from './payload-text.js';

const OP = 'updateEventLogPayload';

export const payloadUpdatePlan: Plan = {
  group: 'payload-update',
  async run(ctx) {
    if (!ctx.policy.writes) {
      for (const check of ['payload-update-persists', 'mqtt-update-refused']) ctx.skip(OP, check, `PATCH not sent: ${ctx.policy.reason}`);
      return;
    }
    const trap = await sampleRecord(ctx, 'snmp-trap');
    if (!trap || textOf(trap) === undefined) {
      ctx.skip(OP, 'payload-update-persists', 'no SNMP trap with a text in the event log');
    } else {
      const text = `contract-check ${ctx.seed} ${ctx.random.word(8)}`;
      const id = String(trap._id);
      let touched = true;
      try {
        const update = await ctx.send(
          { operationId: OP, key: 'payload/update', path: { id }, body: { text } },
          { checks: ['payload-update-persists'], facts: { stage: 'update', recordId: id, text } },
        );
        const status = update.response?.status;
        touched = status === undefined || status < 300;
        if (status !== undefined && status < 300) await readRecord(ctx, trap, 'payload/read-back', { stage: 'read-back', text });
      } finally {
        if (touched) await restoreText(ctx, trap, 'payload/restore');
      }
    }
    const message = await sampleRecord(ctx, 'mqtt');
    if (!message) {
      ctx.skip(OP, 'mqtt-update-refused', 'no MQTT record in the event log');
      return;
    }
    // The text a trap would get; a server that wrongly accepts it adds `text` to this MQTT payload.
    await ctx.send({ operationId: OP, key: 'payload/mqtt', path: { id: String(message._id) }, body: { text: 'contract-check' } }, { checks: ['mqtt-update-refused'] });
  },
};
