import { ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The request whose answer the connection is writing or is to write next (Node's own field,
 * set from the moment a request's headers have arrived until its answer is written).
 */
const answerOf = (socket: Socket): unknown => (socket as Socket & { _httpMessage?: unknown })._httpMessage;

/**
 * Whether the server is working on a request of this connection: it has arrived whole (headers
 * and body) and its answer has not begun (it waits for the event log's records, a long query, an
 * added latency or a fault's delay).
 */
function workedOn(socket: Socket): boolean {
  const answer = answerOf(socket);
  return answer instanceof ServerResponse && !answer.headersSent && answer.req.complete;
}

/** Node closes a connection at its timeout only when no one else listens for it (on the server, the answer or a request still arriving). */
function heardElsewhere(server: Server, socket: Socket): boolean {
  const answer = answerOf(socket);
  if (server.listenerCount('timeout') > 1) return true;
  if (!(answer instanceof ServerResponse)) return false;
  return answer.listenerCount('timeout') > 0 || (!answer.req.complete && answer.req.listenerCount('timeout') > 0);
}

/**
 * The idle timeout (`connections.idleTimeoutMs`) is for connections on which nothing moves
 * because of the client: one that sends nothing, stops halfway through its request, or stops
 * reading an answer. Node's own timeout cannot tell these from a connection whose request the
 * server is still working on, which moves no bytes either, and would cut that request: with a low
 * idle timeout, the first event-log call after start-up (which waits for the records) or a long
 * query. Such a connection is kept and its idle time starts again; every other is closed, as Node
 * does. Slow clients are shed as before: a request that has not arrived whole is not worked on,
 * and the headers and request timeouts are Node's checks apart from this one; an answer that has
 * begun is the client's to read (and has its send timeout).
 */
export function keepConnectionsWorkedOn(server: Server): void {
  server.on('timeout', (socket: Socket) => {
    if (workedOn(socket)) socket.setTimeout(server.timeout);
    else if (!heardElsewhere(server, socket)) socket.destroy();
  });
}
