import type { FastifyReply } from 'fastify';
import type { ApiError } from '../errors.js';
import type { Sleep } from './runtime-config.js';

/** What a scripted call gets: an error answer, a closed connection, or no answer at all. */
export type ScriptedAction = 'error' | 'drop' | 'hang';

/**
 * Thrown by a check to answer a call other than at once: after `delayMs`, with `error`, or by
 * dropping the connection, or by never answering. The server's error handler plays it.
 */
export class ScriptedAnswer extends Error {
  override readonly name = 'ScriptedAnswer';
  constructor(
    readonly action: ScriptedAction,
    readonly delayMs: number,
    readonly error: ApiError,
  ) {
    super(`scripted answer: ${action}`);
  }
}

export interface ScriptedAnswers {
  /** Plays the answer on this reply; resolves once it is sent, dropped, or left hanging. */
  play(reply: FastifyReply, answer: ScriptedAnswer): Promise<FastifyReply>;
  /** Closes every connection left hanging (at shutdown, so closing the server never waits on them). */
  closeAll(): void;
}

/**
 * `hangLimitMs` bounds a hanging answer: after it the connection is closed, as the server's
 * idle timeout would close it, so a hang never outlives the server's own limits.
 */
export function createScriptedAnswers(options: { sleep: Sleep; hangLimitMs: number; send: (reply: FastifyReply, error: ApiError) => FastifyReply }): ScriptedAnswers {
  const hanging = new Set<FastifyReply>();
  const close = (reply: FastifyReply) => {
    hanging.delete(reply);
    reply.raw.destroy();
  };
  return {
    async play(reply, answer) {
      if (answer.delayMs > 0) await options.sleep(answer.delayMs);
      if (answer.action === 'error') return options.send(reply, answer.error);
      reply.hijack();
      if (answer.action === 'drop' || reply.raw.destroyed) {
        reply.raw.destroy();
        return reply;
      }
      hanging.add(reply);
      const timer = setTimeout(() => close(reply), options.hangLimitMs);
      timer.unref();
      reply.raw.once('close', () => {
        clearTimeout(timer);
        hanging.delete(reply);
      });
      return reply;
    },
    closeAll() {
      for (const reply of [...hanging]) close(reply);
    },
  };
}
