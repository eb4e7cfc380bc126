import { readFileSync, readdirSync } from 'node:fs';
const dir = '/tmp/prof/out';
const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => [f, readFileSync(dir + '/' + f).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
const prof = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
const byId = new Map(prof.nodes.map((n: any) => [n.id, n]));
const self = new Map<number, number>();
const dt = prof.timeDeltas as number[];
prof.samples.forEach((id: number, i: number) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const agg = new Map<string, number>();
const aggFile = new Map<string, number>();
for (const [id, t] of self) {
  const n: any = byId.get(id);
  const url = (n.callFrame.url || '').replace(/.*node_modules\//, 'nm/').replace(/.*wt-bench\//, '');
  const key = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}`;
  agg.set(key, (agg.get(key) ?? 0) + t);
  const pkg = url.startsWith('nm/') ? url.split('/').slice(0, url.split('/')[1]?.startsWith('@') ? 3 : 2).join('/') : url || n.callFrame.functionName;
  aggFile.set(pkg, (aggFile.get(pkg) ?? 0) + t);
}
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([key, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}`).join('\n');
console.log('--- by function (self)'); console.log(top(agg, 30));
console.log('--- by file/package (self)'); console.log(top(aggFile, 20));
// inclusive time per src function
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  let cur: number | undefined = id;
  while (cur !== undefined) {
    const n: any = byId.get(cur);
    const url = (n.callFrame.url || '').replace(/.*node_modules\//, 'nm/').replace(/.*wt-bench\//, '');
    if (url.startsWith('src/') || url.startsWith('nm/fastify/lib') || url.startsWith('nm/@fastify') || url.startsWith('nm/fast-querystring') || url.startsWith('nm/find-my-way')) {
      const key = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}`;
      if (!seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + t); }
    }
    cur = parent.get(cur);
  }
}
console.log('--- inclusive (src + fastify)'); console.log(top(incl, 45));
