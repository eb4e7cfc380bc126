// Preloaded into the fake by `npm run bench:hostile` (node --import): the fake's own event-loop
// delay, so that a slow answer to a new connection can be told apart from a fake that held its
// event loop (on two cores, the clients and the kernel's loopback work also compete for the CPU).
// On SIGUSR2 it writes the delay since the last signal (ms) to $BENCH_LOOP_DELAY_FILE and starts
// again. It observes only: monitorEventLoopDelay samples on a timer of its own, in libuv.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
const RESOLUTION_MS = 10;

if (file) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let seq = 0;
  process.on('SIGUSR2', () => {
    // The histogram holds the time between two of its timer's ticks: the delay is what exceeds the resolution.
    const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);
    writeFileSync(file, JSON.stringify({ seq: ++seq, p50Ms: ms(histogram.percentile(50)), p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max) }));
    histogram.reset();
  });
}
