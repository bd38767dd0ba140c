// @vitest-environment node
/**
 * Every relative link in the repository's markdown resolves: the file or folder exists and, for a
 * `#anchor` into a markdown file, a heading of that file has that anchor (GitHub's rule: lower
 * case, punctuation dropped, spaces to hyphens, repeats numbered). Nothing may point outside the
 * repository. Links to the web (`https:`, `mailto:`) are not fetched.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Folders whose markdown is not the project's: installed packages, git, build output. */
const SKIPPED = new Set(['node_modules', '.git', '.deps']);

/** Every *.md file of the repository, outside node_modules, .git, dist/ and bench's installed comparison libraries. */
function markdownFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIPPED.has(entry.name) || path === join(ROOT, 'dist')) return [];
      return markdownFiles(path);
    }
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside code: fenced blocks and inline code never hold links. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchors for the headings of `markdown`. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading = ''] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** The targets of `[text](target)` links and `[label]: target` definitions in `markdown`'s prose. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
  const defined = [...text.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/gm)].map((match) => match[1] ?? '');
  return [...inline, ...defined];
}

const files = markdownFiles();

describe('relative links in the markdown files', () => {
  it('finds the pages', () => {
    const names = files.map((file) => relative(ROOT, file));
    expect(names).toContain('README.md');
    expect(names).toContain(join('docs', 'concepts.md'));
    expect(names).toContain(join('bench', 'README.md'));
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s: every relative link resolves', (_, file) => {
    const markdown = readFileSync(file, 'utf8');
    const broken: string[] = [];
    for (const target of linkTargets(markdown)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (resolved !== ROOT.replace(/\/$/, '') && !resolved.startsWith(ROOT.endsWith(sep) ? ROOT : ROOT + sep)) {
        broken.push(`${target}: outside the repository`);
        continue;
      }
      const stat = statSync(resolved, { throwIfNoEntry: false });
      if (stat === undefined) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && stat.isFile() && resolved.endsWith('.md')) {
        if (!anchors(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${target}: no heading with that anchor`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('anchors', () => {
  it("follow GitHub's rule", () => {
    expect([
      ...anchors('# Two scripts: less at document start\n## The `echo_id`, once\n## Retries\n## Retries\n'),
    ]).toEqual(['two-scripts-less-at-document-start', 'the-echo_id-once', 'retries', 'retries-1']);
  });
});
