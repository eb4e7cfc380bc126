// The client side of `npm run bench:hostile`, in a process of its own so that building and
// uploading hostile requests does not slow the load generator that measures normal traffic.
// Usage: node --import tsx bench/hostile-client.ts <origin> <recordId> <repeat>; prints JSON.
import { sendHostile } from './lib/hostile-requests.js';

const [origin = '', recordId = '', repeat = '20'] = process.argv.slice(2);
const results = await sendHostile(origin, recordId, Number(repeat), (line) => console.error(`[hostile] ${line}`));
console.log(JSON.stringify(results));
