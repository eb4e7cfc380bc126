import { pino } from 'pino';

type LineStream = { write(line: string): void };
let stdoutStream: LineStream | undefined;

/** Lines are handed on in blocks of about this many characters… */
const BLOCK_CHARS = 16_384;
/** …or this many milliseconds after the first line of a block, whichever comes first. */
const BLOCK_MS = 100;

/**
 * stdout for the fake's log lines, one per process: lines go to pino's destination (sonic-boom,
 * written asynchronously) in blocks. A write for each line (or each turn of the event loop,
 * which under load is often one request) cost more than making the line; given lines one at a
 * time, sonic-boom also measures its growing buffer again for each. Flushed when the process
 * exits.
 */
export function stdoutLogStream(): LineStream {
  stdoutStream ??= blocksOfLines(pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }));
  return stdoutStream;
}

function blocksOfLines(destination: ReturnType<typeof pino.destination>): LineStream {
  let pending: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    // Encoded once, here: given text, sonic-boom measures and encodes it again, up to three times.
    const bytes = Buffer.from(pending.join(''));
    pending = [];
    chars = 0;
    destination.write(bytes as unknown as string);
  };
  process.once('exit', () => {
    // Nothing asynchronous runs after 'exit': a block handed to an async write now would be
    // lost (flushSync leaves a write in progress alone), so the last ones are written at once.
    (destination as unknown as { sync: boolean }).sync = true;
    flush();
    destination.flushSync();
  });
  return {
    write(line: string) {
      pending.push(line);
      chars += line.length;
      if (chars >= BLOCK_CHARS) flush();
      else timer ??= setTimeout(flush, BLOCK_MS).unref();
    },
  };
}
