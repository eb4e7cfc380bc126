// The client side of `npm run bench:hostile`, in a process of its own so that building and
// uploading hostile requests does not slow the load generator that measures normal traffic.
// Usage: node --import tsx bench/hostile-client.ts <origin> <recordId> <repeat> <flood> <serverPid> <readers>; prints JSON.
import { sendHostile } from './lib/hostile-requests.js';
import { floodSlowConnections } from './lib/slow-connections.js';
import { holdSlowReaders } from './lib/slow-readers.js';

const [origin = '', recordId = '', repeat = '20', flood = '2000', serverPid = '0', readers = '50'] = process.argv.slice(2);
const log = (line: string) => console.error(`[hostile] ${line}`);
const results = await sendHostile(origin, recordId, Number(repeat), log);
results.push(...(await holdSlowReaders(origin, Number(serverPid), Number(readers), 10_000, log)));
results.push(...(await floodSlowConnections(origin, Number(flood), Number(serverPid), log)));
console.log(JSON.stringify(results));
