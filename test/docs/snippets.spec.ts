// @vitest-environment node
/**
 * The docs' TypeScript snippets are type-checked where `npm run typecheck` can see them, in
 * test/types/: the React Native ones in react-native-snippet.tsx (against the real react-native
 * and react-native-webview types), the typed client's in typed-client-snippet.ts. This keeps
 * those files in step with the pages: every ```ts / ```tsx block of README.md and docs/ belongs
 * to one of them, every code line of it must be a line there, and every module it imports must
 * be one the package exports (or, for react and the like, one the checked file imports too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const exported = Object.keys((JSON.parse(read('package.json')) as { exports: Record<string, unknown> }).exports);

/** A line as compared: without its trailing `// comment` and surrounding space. */
const code = (line: string) => line.replace(/\s+\/\/ .*$/, '').trim();

/** Where each page's snippets are type-checked: by the first block language that matches. */
const CHECKED: Record<'tsx' | 'ts', string> = {
  tsx: 'test/types/react-native-snippet.tsx',
  ts: 'test/types/typed-client-snippet.ts',
};

interface Snippet {
  page: string;
  language: 'ts' | 'tsx';
  text: string;
}

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((page) =>
  page.endsWith('.md'),
);
const snippets: Snippet[] = pages.flatMap((page) =>
  [...read(page).matchAll(/^```(tsx?)\n([\s\S]*?)^```/gm)].map((match) => ({
    page,
    language: match[1] as 'ts' | 'tsx',
    text: match[2] ?? '',
  })),
);
const cases = snippets.map(
  (snippet, index) => [`${snippet.page} #${index + 1} (${snippet.language})`, snippet] as const,
);

describe('the TypeScript snippets of the docs', () => {
  it('are found in the README, the React Native page and the typed client page', () => {
    const where = new Set(snippets.map((snippet) => snippet.page));
    for (const page of ['README.md', 'docs/react-native.md', 'docs/typed-client.md']) expect(where).toContain(page);
  });

  it.each(cases)('%s: each code line is a line of the type-checked file', (_, snippet) => {
    const checkedLines = new Set(read(CHECKED[snippet.language]).split('\n').map(code));
    for (const line of snippet.text.split('\n').map(code)) {
      if (line === '' || line.startsWith('//') || line.startsWith('import ')) continue;
      expect(checkedLines.has(line), `${line}\n(not in ${CHECKED[snippet.language]})`).toBe(true);
    }
  });

  it.each(cases)('%s: imports only what the package exports, or what the checked file imports', (_, snippet) => {
    const checked = read(CHECKED[snippet.language]);
    for (const [, names = '', module = ''] of snippet.text.matchAll(/^import \{ ([\w, ]+) \} from '([^']+)';$/gm)) {
      for (const name of names.split(', ')) {
        if (module.startsWith('chat-bridge/')) {
          // The checked file takes the package's modules from source, or declares what only dist/ holds.
          expect(exported, module).toContain(`./${module.slice('chat-bridge/'.length)}`);
          expect(checked, name).toMatch(new RegExp(`(declare const ${name}\\b|import \\{[^}]*\\b${name}\\b)`));
        } else {
          const same = new RegExp(`^import \\{[^}]*\\b${name}\\b[^}]*\\} from '${module}';$`, 'm');
          expect(checked, `${name} from ${module}`).toMatch(same);
        }
      }
    }
  });
});
