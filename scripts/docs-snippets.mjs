// @ts-check
/**
 * The docs' TypeScript snippets, compiled as written: every ```ts and ```tsx block of README.md
 * and docs/ becomes a file of its own in a consumer project (one that has chat-bridge in its
 * node_modules), checked with the tsconfigs docs/typescript.md recommends, as the page shows
 * them: `ts` blocks under the ES-module app's and the bundler's, `tsx` blocks under React
 * Native's. A name a snippet uses must be imported or declared in the snippet itself (a
 * `declare` line the page shows), since nothing else is in its file.
 *
 * Used by scripts/test-package.mjs (the installed tarball) and test/docs/snippets.spec.ts (the
 * repository's build, and the checker's own test). No dependency beyond Node and TypeScript.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @typedef {{page: string, line: number, language: 'ts' | 'tsx', text: string}} Snippet */
/** @typedef {{name: string, heading: string, languages: Array<'ts' | 'tsx'>}} Profile */

/** The page that recommends the tsconfigs, and under which heading each is shown. */
export const TYPESCRIPT_PAGE = 'docs/typescript.md';
/** @type {Profile[]} */
export const PROFILES = [
  { name: 'esm', heading: 'An ES module app', languages: ['ts'] },
  { name: 'bundler', heading: 'With a bundler', languages: ['ts'] },
  { name: 'react-native', heading: 'React Native', languages: ['tsx'] },
];

/**
 * Every ```ts / ```tsx block of the given pages, with the page line of its first code line.
 * @param {Array<{page: string, text: string}>} pages
 * @returns {Snippet[]}
 */
export function snippetsOf(pages) {
  return pages.flatMap(({ page, text }) =>
    [...text.matchAll(/^```(tsx?)\n([\s\S]*?)^```/gm)].map((match) => ({
      page,
      // The fence's own line number, counted from 1: the first code line is the next one.
      line: text.slice(0, match.index).split('\n').length,
      language: /** @type {'ts' | 'tsx'} */ (match[1]),
      text: match[2] ?? '',
    })),
  );
}

/**
 * The first ```json block under the heading that starts with `heading` (any level).
 * @param {string} markdown
 * @param {string} heading
 * @returns {{compilerOptions: Record<string, unknown>}}
 */
export function recommendedConfig(markdown, heading) {
  const at = markdown.search(new RegExp(`^#+ ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
  if (at < 0) throw new Error(`${TYPESCRIPT_PAGE} has no heading "${heading}"`);
  const block = /^```json\n([\s\S]*?)^```/m.exec(markdown.slice(at));
  if (block?.[1] === undefined) throw new Error(`${TYPESCRIPT_PAGE} has no json block under "${heading}"`);
  return JSON.parse(block[1]);
}

/**
 * Writes each snippet as `docs-snippets/<n>.ts(x)` (a module: `export {}` is appended after its
 * last line, so its line numbers are the page's) and a tsconfig per profile, with the page's
 * compiler options and only `noEmit` and the files added.
 * @param {string} dir the consumer project
 * @param {Snippet[]} snippets
 * @param {string} typescriptPage the text of docs/typescript.md
 * @returns {string[]} the tsconfig files, relative to `dir`
 */
export function writeSnippetProject(dir, snippets, typescriptPage) {
  mkdirSync(join(dir, 'docs-snippets'), { recursive: true });
  const files = snippets.map((snippet, index) => {
    const file = `docs-snippets/${index + 1}.${snippet.language}`;
    writeFileSync(join(dir, file), `${snippet.text}export {};\n`);
    return file;
  });
  writeFileSync(
    join(dir, 'docs-snippets/index.json'),
    JSON.stringify(snippets.map(({ page, line }) => ({ page, line }))),
  );
  return PROFILES.map((profile) => {
    const { compilerOptions } = recommendedConfig(typescriptPage, profile.heading);
    const config = `tsconfig.docs-${profile.name}.json`;
    const mine = files.filter((_, index) =>
      profile.languages.includes(/** @type {Snippet} */ (snippets[index]).language),
    );
    writeFileSync(
      join(dir, config),
      JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true }, files: mine }),
    );
    return config;
  });
}

/**
 * Runs tsc on each config written by writeSnippetProject; returns its errors, each as
 * `page:line:column: error TSnnnn: ...` (the profile it failed under in brackets).
 * @param {string} dir
 * @param {string[]} configs
 * @param {string} tsc the path of typescript/bin/tsc
 * @returns {string[]}
 */
export function checkSnippetProject(dir, configs, tsc) {
  /** @type {Array<{page: string, line: number}>} */
  const index = JSON.parse(readFileSync(join(dir, 'docs-snippets/index.json'), 'utf8'));
  return configs.flatMap((config) => {
    const run = spawnSync(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
    if (run.status === 0) return [];
    const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim() !== '');
    const errors = lines
      .filter((line) => !line.startsWith(' '))
      .map((line) => {
        const at = /^docs-snippets\/(\d+)\.tsx?\((\d+),(\d+)\): (.*)$/.exec(line);
        const snippet = at && index[Number(at[1]) - 1];
        if (!at || !snippet) return `${line} [${config}]`;
        return `${snippet.page}:${snippet.line + Number(at[2])}:${at[3]}: ${at[4]} [${config}]`;
      });
    // A failed run always names something.
    return errors.length > 0 ? errors : [`tsc -p ${config} exited ${run.status ?? run.signal}`];
  });
}
