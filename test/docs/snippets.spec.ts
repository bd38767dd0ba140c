// @vitest-environment node
/**
 * The docs' TypeScript snippets are type-checked where `npm run typecheck` can see them: the React
 * Native ones in test/types/react-native-snippet.tsx, against the real react-native and
 * react-native-webview types. This keeps that file in step with the pages: every code line of a
 * ```tsx snippet of README.md's React Native start and of docs/react-native.md must be a line of
 * it, and every module a snippet imports must be one the package exports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** A line as compared: without its trailing `// comment` and surrounding space. */
const code = (line: string) => line.replace(/\s+\/\/ .*$/, '').trim();

/** The ```tsx blocks of `markdown`, or of its section under `heading` only. */
function tsxBlocks(markdown: string, heading?: string): string[] {
  let text = markdown;
  if (heading !== undefined) {
    const start = markdown.indexOf(`${heading}\n`);
    if (start < 0) throw new Error(`no heading "${heading}"`);
    const level = /^#+/.exec(heading)?.[0] ?? '#';
    const end = markdown.slice(start + heading.length).search(new RegExp(`^#{1,${level.length}} `, 'm'));
    text = markdown.slice(start, end < 0 ? undefined : start + heading.length + end);
  }
  return [...text.matchAll(/```tsx\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

const checked = read('test/types/react-native-snippet.tsx');
const checkedLines = new Set(checked.split('\n').map(code));
const exported = Object.keys((JSON.parse(read('package.json')) as { exports: Record<string, unknown> }).exports);

const pages: Array<[string, string[]]> = [
  ['README.md', tsxBlocks(read('README.md'), '### React Native')],
  ['docs/react-native.md', tsxBlocks(read('docs/react-native.md'))],
];

describe('the React Native snippets', () => {
  it.each(pages)('of %s are each line of the type-checked file', (_, blocks) => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      for (const line of block.split('\n').map(code)) {
        if (line === '' || line.startsWith('//') || line.startsWith('import ')) continue;
        expect(checkedLines.has(line), line).toBe(true);
      }
    }
  });

  it.each(pages)('of %s import only what the package exports, and the checked file declares it', (_, blocks) => {
    const imports = blocks.flatMap((block) => [...block.matchAll(/^import \{ (\w+) \} from '([^']+)';$/gm)]);
    expect(imports.length).toBeGreaterThan(0);
    for (const [, name = '', module = ''] of imports) {
      expect(module.startsWith('chat-bridge/'), module).toBe(true);
      expect(exported, module).toContain(`./${module.slice('chat-bridge/'.length)}`);
      expect(checked, name).toMatch(new RegExp(`(declare const ${name}\\b|import \\{[^}]*\\b${name}\\b)`));
    }
  });
});
