// @ts-check
/**
 * The fenced code blocks of the project's Markdown, by language: what `npm run test:native`
 * compiles (Kotlin) or parses (Swift, Dart). The docs that hold platform code: README.md,
 * docs/**\/*.md and host-adapters/**\/*.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * @typedef {{ file: string, line: number, lang: string, code: string }} Snippet
 *   `file` relative to the root, `line` the 1-based line of the opening fence.
 */

/**
 * The Markdown files whose snippets are checked, relative to [root].
 * @param {string} root
 * @returns {string[]}
 */
export function markdownFiles(root) {
  const files = ['README.md'];
  const walk = (/** @type {string} */ folder, /** @type {(name: string) => boolean} */ take) => {
    if (!existsSync(join(root, folder))) return;
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path, take);
      else if (entry.isFile() && take(entry.name)) files.push(path);
    }
  };
  walk('docs', (name) => name.endsWith('.md'));
  walk('host-adapters', (name) => name.endsWith('.md'));
  return files.filter((file) => existsSync(join(root, file))).map((file) => relative(root, join(root, file)));
}

/**
 * Every fenced block (``` or ~~~, any indentation) of [text], with its info string's first word
 * as the language.
 * @param {string} text
 * @param {string} file
 * @returns {Snippet[]}
 */
export function fencedBlocks(text, file) {
  /** @type {Snippet[]} */
  const snippets = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', lang = ''] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] ?? '';
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (close !== undefined && close[0] === fence[0] && close.length >= fence.length) break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    snippets.push({ file, line: i + 1, lang: lang.toLowerCase(), code: body.join('\n') });
    i = j;
  }
  return snippets;
}

/**
 * The snippets in [langs] of every checked Markdown file under [root].
 * @param {string} root
 * @param {string[]} langs
 * @returns {Snippet[]}
 */
export function markdownSnippets(root, langs) {
  return markdownFiles(root)
    .flatMap((file) => fencedBlocks(readFileSync(join(root, file), 'utf8'), file))
    .filter(({ lang }) => langs.includes(lang));
}
