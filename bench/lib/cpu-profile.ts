import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: number[];
}
interface Profile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

const shortUrl = (url: string) => url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench|bin|dist)\//, '$1/');
const packageOf = (url: string) => {
  if (!url.includes('node_modules/')) return url.startsWith('node:') ? url.split('/').slice(0, 2).join('/') : shortUrl(url) || '(native)';
  const parts = shortUrl(url).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
};

/** The largest .cpuprofile in a folder: the main thread's (tsx's loader thread writes a small one too). */
export function mainProfile(dir: string): Profile {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const biggest = files.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!biggest) throw new Error(`no .cpuprofile in ${dir}`);
  return JSON.parse(readFileSync(join(dir, biggest), 'utf8')) as Profile;
}

/** Where the time went: self time by package or file, and inclusive time of the project's functions. */
export function summarize(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byPackage = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const pkg = node.callFrame.url ? packageOf(node.callFrame.url) : node.callFrame.functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      if (!frame || !/\/(src|bench|dist)\//.test(frame.url) || frame.url.includes('node_modules')) continue;
      const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    }
  }
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return `Self time by package or file:\n${list(byPackage)}\n\nInclusive time of the project's functions:\n${list(inclusive)}`;
}
