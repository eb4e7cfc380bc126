import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every relative link and anchor of README.md and docs/*.md must lead somewhere: a moved page or
// a renamed heading fails here, not in a reader's browser.
const root = fileURLToPath(new URL('../../', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks and code spans, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** Every broken relative link of one page, as `target: why`. */
function brokenLinks(page: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/!?\[[^\]]*\]\(<?([^)\s>]+)>?(?: "[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // http:, https:, mailto:
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
    if (!existsSync(file)) {
      broken.push(`${target}: no file ${relative(root, file)}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(file).isDirectory() || !file.endsWith('.md')) {
      broken.push(`${target}: an anchor into a file that is not markdown`);
    } else if (!anchors(path === '' ? markdown : readFileSync(file, 'utf8')).has(anchor)) {
      broken.push(`${target}: no heading of ${relative(root, file)} has the anchor #${anchor}`);
    }
  }
  return broken;
}

describe('links of the README and docs/', () => {
  it.each(pages)('%s: every relative link and anchor resolves', (page) => {
    expect(brokenLinks(page, readFileSync(join(root, page), 'utf8'))).toEqual([]);
  });

  it('finds a missing page, a missing anchor, and reads anchors as GitHub makes them', () => {
    const text = '# Drift: `--compare-with`\n[a](docs/no-such-page.md) [b](#drift---compare-with) [c](#no-such-heading) [d](docs/fake.md#seeded-users)\n`[e](nowhere.md)`';
    const broken = brokenLinks('README.md', text);
    expect(broken.map((b) => b.split(':')[0])).toEqual(['docs/no-such-page.md', '#no-such-heading']);
  });

  it('reads every page the README lists', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#]+\.md)/g)].map(([, page]) => page));
    expect(pages.filter((page) => page.startsWith('docs/') && !linked.has(page))).toEqual([]);
  });
});
