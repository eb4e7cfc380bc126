import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * Where a frame's code comes from. In a bundle of esbuild (dist/bin/), each module's code
 * follows a comment line with its path (`// node_modules/fastify/lib/route.js`,
 * `// dist/server/build.js`): the frame's line finds it.
 */
const bundleModules = new Map<string, { lines: number[]; paths: string[] } | undefined>();
function moduleOf(url: string, line: number): string {
  if (!url.startsWith('file://') || !url.includes('/dist/bin/')) return url;
  let modules = bundleModules.get(url);
  if (!bundleModules.has(url)) {
    try {
      modules = { lines: [], paths: [] };
      readFileSync(fileURLToPath(url), 'utf8')
        .split('\n')
        .forEach((text, i) => {
          const path = /^\/\/ ((?:node_modules|dist)\/\S+\.[cm]?js)$/.exec(text)?.[1];
          if (path) {
            modules!.lines.push(i);
            modules!.paths.push(path);
          }
        });
    } catch {
      modules = undefined;
    }
    bundleModules.set(url, modules);
  }
  if (!modules || modules.lines.length === 0) return url;
  let lo = 0;
  let hi = modules.lines.length - 1;
  if (line < (modules.lines[0] as number)) return url;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((modules.lines[mid] as number) <= line) lo = mid;
    else hi = mid - 1;
  }
  return `file:///bundled/${modules.paths[lo]}`;
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

/** Where the busy (not idle) time went: self time by package or file, and inclusive time of the project's functions. */
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
    const url = moduleOf(node.callFrame.url, node.callFrame.lineNumber);
    const pkg = url ? packageOf(url) : node.callFrame.functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      const frameUrl = frame ? moduleOf(frame.url, frame.lineNumber) : '';
      if (!frame || !/\/(src|bench|dist)\//.test(frameUrl) || frameUrl.includes('node_modules')) continue;
      const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frameUrl)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    }
  }
  const busy = total - (byPackage.get('(idle)') ?? 0);
  byPackage.delete('(idle)');
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, t]) => `${((100 * t) / busy).toFixed(1).padStart(5)} % ${(t / 1000).toFixed(0).padStart(5)} ms  ${k}`)
      .join('\n');
  return `${(busy / 1000).toFixed(0)} ms busy (not idle) of ${(total / 1000).toFixed(0)} ms profiled; shares of the busy time.\n\nSelf time by package or file:\n${list(byPackage)}\n\nInclusive time of the project's functions:\n${list(inclusive)}`;
}
