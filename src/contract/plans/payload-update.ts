// A payload update persists and is put back; an MQTT record's payload cannot be updated.
import { apply } from '../checks/define.js';
import { mqttUpdateRefused } from '../checks/mqtt-update-refused.js';
import { payloadUpdatePersists } from '../checks/payload-update-persists.js';
import type { Plan } from './plan.js';
import { eventLogSample, sampleRecord, unreadable } from './plan.js';
import { readRecord, restoreText, textOf } from './payload-text.js';

const OP = 'updateEventLogPayload';

export const payloadUpdatePlan: Plan = {
  async run(ctx) {
    if (!ctx.policy.writes) {
      for (const check of [payloadUpdatePersists.name, mqttUpdateRefused.name]) ctx.skip(OP, check, `PATCH not sent: ${ctx.policy.reason}`);
      return;
    }
    // Without the log's records there is nothing to aim at: the server's answer stopped the checks, not the data.
    const why = unreadable(await eventLogSample(ctx));
    if (why) {
      for (const check of [payloadUpdatePersists.name, mqttUpdateRefused.name]) ctx.inconclusive(OP, check, `the event log could not be read: ${why}`);
      return;
    }
    const trap = await sampleRecord(ctx, 'snmp-trap');
    if (!trap || textOf(trap) === undefined) {
      ctx.skip(OP, payloadUpdatePersists.name, 'no SNMP trap with a text in the event log');
    } else {
      const text = `contract-check ${ctx.seed} ${ctx.random.word(8)}`;
      const id = String(trap._id);
      let touched = true;
      try {
        const update = await ctx.send(
          { operationId: OP, key: 'payload/update', path: { id }, body: { text } },
          { checks: [apply(payloadUpdatePersists, { stage: 'update', recordId: id, text })] },
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
      ctx.skip(OP, mqttUpdateRefused.name, 'no MQTT record in the event log');
      return;
    }
    // The text a trap would get; a server that wrongly accepts it adds `text` to this MQTT payload.
    await ctx.send({ operationId: OP, key: 'payload/mqtt', path: { id: String(message._id) }, body: { text: 'contract-check' } }, { checks: [apply(mqttUpdateRefused)] });
  },
};
