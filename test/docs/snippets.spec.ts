// @vitest-environment node
/**
 * The docs' TypeScript snippets compile as written (scripts/docs-snippets.mjs): each ```ts /
 * ```tsx block of README.md and docs/ in a file of its own, under the tsconfigs
 * docs/typescript.md recommends, in a scratch consumer project whose node_modules/chat-bridge is
 * this repository's build (npm run test:package does the same against the installed tarball).
 * The checker itself is tested first: a snippet with a name it never declares fails, at the page's
 * line.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkSnippetProject,
  PROFILES,
  recommendedConfig,
  snippetsOf,
  TYPESCRIPT_PAGE,
  writeSnippetProject,
} from '../../scripts/docs-snippets.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)]
  .filter((page) => page.endsWith('.md'))
  .map((page) => ({ page, text: read(page) }));
const typescriptPage = read(TYPESCRIPT_PAGE);

const scratches: string[] = [];
afterAll(() => scratches.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A consumer project: type module, chat-bridge (this repository, built) and the React Native
 * packages the tsx snippets import, linked from the repository's node_modules.
 */
function consumer(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-bridge-snippets-'));
  scratches.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules/chat-bridge'), 'dir');
  for (const name of ['react', 'react-native', 'react-native-webview', '@types/react'])
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  return dir;
}

describe('the docs-snippets checker', () => {
  it('finds each block with the page line of its fence, and the three tsconfigs of the TypeScript page', () => {
    const found = snippetsOf([
      { page: 'x.md', text: 'a\n\n```ts\nconst a = 1;\n```\n```tsx\n<b />\n```\n```js\nc\n```\n' },
    ]);
    expect(found).toEqual([
      { page: 'x.md', line: 3, language: 'ts', text: 'const a = 1;\n' },
      { page: 'x.md', line: 6, language: 'tsx', text: '<b />\n' },
    ]);
    for (const profile of PROFILES)
      expect(recommendedConfig(typescriptPage, profile.heading).compilerOptions).toMatchObject({ strict: true });
    expect(recommendedConfig(typescriptPage, 'React Native').compilerOptions['lib']).toEqual(['ES2022']);
  });

  it('fails a snippet that uses a name it never declares, at its line on the page; passes it once declared', () => {
    const dir = consumer();
    const page = (body: string) => ({
      page: 'docs/broken.md',
      text: `# Broken\n\nText.\n\n\`\`\`ts\nimport { createClient } from 'chat-bridge/client';\n\n${body}\`\`\`\n`,
    });
    const broken = page('const client = createClient(transport);\nexport default client;\n');
    const configs = writeSnippetProject(dir, snippetsOf([broken]), typescriptPage);
    const errors = checkSnippetProject(dir, configs.slice(0, 1), TSC);
    expect(errors).toEqual([
      expect.stringMatching(
        /^docs\/broken\.md:8:29: error TS(2304|2552): Cannot find name 'transport'\.( Did you mean '\w+'\?)? \[tsconfig\.docs-esm\.json\]$/,
      ),
    ]);

    const fixed = page(
      "declare const transport: import('chat-bridge/client').ClientTransport;\nexport const client = createClient(transport);\n",
    );
    const again = writeSnippetProject(dir, snippetsOf([fixed]), typescriptPage);
    expect(checkSnippetProject(dir, again.slice(0, 1), TSC)).toEqual([]);
  }, 300_000);
});

describe('the TypeScript snippets of the docs', () => {
  const snippets = snippetsOf(pages);

  it('are found in the README, the React Native page and the typed client page, in both languages', () => {
    const where = new Set(snippets.map((snippet) => snippet.page));
    for (const page of ['README.md', 'docs/react-native.md', 'docs/typed-client.md']) expect(where).toContain(page);
    expect(new Set(snippets.map((snippet) => snippet.language))).toEqual(new Set(['ts', 'tsx']));
  });

  it('compile as written, under strict, with the tsconfigs docs/typescript.md recommends', () => {
    const dir = consumer();
    const configs = writeSnippetProject(dir, snippets, typescriptPage);
    expect(checkSnippetProject(dir, configs, TSC)).toEqual([]);
  }, 300_000);
});
