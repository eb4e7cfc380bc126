import type { Socket } from 'node:net';

/** MQTT control packet type of PUBLISH (the high 4 bits of the first byte). */
export const PUBLISH = 3;

/**
 * Reads the fixed header of each MQTT packet a connection sends (type, then the remaining length
 * as a variable byte integer) and calls `tooLarge` once, with the packet's type, as soon as one
 * announces more than `maxBytes`: before its body arrives. aedes (and mqtt-packet under it) has
 * no size limit and would buffer any packet whole (up to 256 MB). The bytes seen are those aedes
 * reads (a 'data' listener on a stream read through 'readable' is told of each `read()`).
 */
export function watchPacketSizes(socket: Socket, maxBytes: number, tooLarge: (type: number) => void): void {
  let body = 0; // bytes of the current packet's body not seen yet
  let type = -1; // the current packet's type, -1 before its first byte
  let length = 0;
  let shift = 0;
  const onData = (chunk: Buffer): void => {
    for (let i = 0; i < chunk.length; ) {
      if (body > 0) {
        const n = Math.min(body, chunk.length - i);
        body -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++] as number;
      if (type < 0) {
        [type, length, shift] = [byte >> 4, 0, 0];
        continue;
      }
      length += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (length > maxBytes) {
        socket.off('data', onData);
        return tooLarge(type);
      }
      if (byte & 0x80) continue; // more length bytes follow
      [body, type] = [length, -1];
    }
  };
  socket.on('data', onData);
}
