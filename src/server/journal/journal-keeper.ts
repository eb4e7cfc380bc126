import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import type { JournalRecord, RequestJournal } from '../../store/request-journal.js';
import { streamedPageHead } from '../page-stream.js';
import { textHead } from '../../shared/text-head.js';
import { utf8Head } from '../utf8-head.js';

/** The longest URL and Origin kept in full: a request's head may be 16 KiB, a journal up to `x-max-journal-size` requests. */
export const KEPT_TEXT_CHARS = 2048;

/** A text, or a copy of its head (cut between characters) and "…" when it is longer than `max`. */
const headOf = (text: string, max: number): string => (text.length <= max ? text : `${textHead(text, max)}…`);

type KeptBody = Pick<JournalRecord, 'body' | 'bodyCut'>;
const NO_BODY: KeptBody = { body: undefined, bodyCut: undefined };

/**
 * An answer's body: the payload itself (no copy, no parse), or a copy of its head when
 * it is longer than `perBody`; of a streamed page, the head of its text, made apart (the body is
 * not written yet).
 */
const bodyKeeper = (perBody: number) => (payload: unknown): KeptBody => {
  if (typeof payload === 'string') return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: textHead(payload, perBody), bodyCut: 'head' };
  if (Buffer.isBuffer(payload)) return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: utf8Head(payload, perBody), bodyCut: 'head' };
  const head = streamedPageHead(payload, perBody);
  return head === undefined ? NO_BODY : { body: head.bytes, bodyCut: head.whole ? undefined : 'head' };
};

/** Whether a payload is text or bytes that the journal keeps whole (`perBody` or shorter). */
const shortText = (perBody: number) => (payload: unknown): boolean => (typeof payload === 'string' || Buffer.isBuffer(payload)) && payload.length <= perBody;

/** Keeps one answer of the monitoring API in the journal, `operationId` that of its route (undefined for a path no route takes). */
export type JournalKeeper = (request: FastifyRequest, reply: FastifyReply, payload: unknown, operationId: string | undefined) => void;

/**
 * Keeps each answer of the monitoring API (its routes, and paths under its prefix no route
 * takes) in the journal: the answer hook (answer-hook.ts) calls it once the answer's latency has
 * passed, so that the duration includes it. It costs one record a request: fields that the
 * request and reply already hold and the answer's body, error answers' too, by reference when
 * it is short (masked when read), else a copy of its head.
 */
export function createJournalKeeper(journal: RequestJournal, clock: Clock): JournalKeeper {
  const { perBody } = journal.bodyLimits;
  const bodyOf = bodyKeeper(perBody);
  const isShortText = shortText(perBody);
  return function keepInJournal(request, reply, payload, operationId) {
    const { caller } = request;
    const status = reply.statusCode;
    // A body short enough to keep whole (the usual answer) is kept without making a KeptBody.
    const whole = isShortText(payload);
    const { body, bodyCut } = whole ? NO_BODY : bodyOf(payload);
    journal.add({
      id: journal.nextId(),
      time: clock.now(),
      method: request.method,
      rawUrl: headOf(request.url, KEPT_TEXT_CHARS),
      operationId,
      authMethod: caller?.via,
      userId: caller?.user.id,
      login: caller?.user.login,
      origin: request.headers.origin === undefined ? undefined : headOf(request.headers.origin, KEPT_TEXT_CHARS),
      status,
      durationMs: performance.now() - request.receivedAt,
      body: whole ? (payload as string | Buffer) : body,
      bodyCut,
    });
  };
}
