// @ts-check
/**
 * The docs' Kotlin snippets as files kotlinc compiles, each as a reader would paste it into an
 * app: with the package's and the Android API's imports, and the reader's own names (webView,
 * showError, ...) from test/native/SnippetContext.kt. A snippet that declares classes or imports
 * is a file of its own; one of statements becomes a function's body. Each gets its own package,
 * so two snippets may declare the same name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a reader of the docs has imported already. */
const IMPORTS = [
  'dev.chatbridge.*',
  'dev.chatbridge.snippets.*',
  'android.content.Context',
  'android.os.Bundle',
  'android.util.Log',
  'androidx.appcompat.app.AppCompatActivity',
  'android.webkit.*',
  'androidx.webkit.*',
  'org.json.JSONArray',
  'org.json.JSONObject',
  'java.io.File',
];

/**
 * The file name kotlinc will show in its messages: where the snippet is.
 * @param {{ file: string, line: number }} snippet
 */
export function snippetFileName({ file, line }) {
  return `${file.replace(/[^\w]+/g, '_')}_line_${line}.kt`;
}

/**
 * Whether [code] (its imports aside) declares things at the top level (a file) rather than
 * running statements.
 * @param {string} code
 */
export function isFileSnippet(code) {
  return /^(package |@file:|(?:(?:public|internal|private|data|sealed|abstract|open|enum)\s+)*(?:class|object|interface) )/m.test(
    code,
  );
}

/**
 * The Kotlin source for one snippet: its first line names where the snippet is in the docs.
 * @param {{ file: string, line: number, code: string }} snippet
 * @param {number} index
 */
export function snippetSource(snippet, index) {
  const lines = snippet.code.split('\n');
  const imports = lines.filter((line) => /^import\s/.test(line));
  const rest = lines.filter((line) => !/^import\s/.test(line));
  const header = [
    `// ${snippet.file}, the snippet at line ${snippet.line}`,
    `@file:Suppress("UNUSED_VARIABLE", "UNUSED_PARAMETER", "UNUSED_ANONYMOUS_PARAMETER")`,
    `package dev.chatbridge.snippets.s${index}`,
    ...new Set([...IMPORTS.map((name) => `import ${name}`), ...imports]),
  ];
  const body = isFileSnippet(rest.join('\n')) ? rest : ['fun snippet() {', ...rest, '}'];
  return [...header, ...body].join('\n') + '\n';
}

/**
 * Writes every snippet into [folder]; returns the paths.
 * @param {{ file: string, line: number, code: string }[]} snippets
 * @param {string} folder
 */
export function writeKotlinSnippets(snippets, folder) {
  return snippets.map((snippet, index) => {
    const path = join(folder, snippetFileName(snippet));
    writeFileSync(path, snippetSource(snippet, index));
    return path;
  });
}
