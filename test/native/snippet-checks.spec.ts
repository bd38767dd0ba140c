/**
 * The checks `npm run test:native` runs on the docs' native snippets must be able to fail: a
 * broken Swift or Dart snippet is reported at its line, correct Dart 3 is not, and Kotlin
 * snippets become files kotlinc compiles as written.
 */
import { describe, expect, it } from 'vitest';
import { isFileSnippet, snippetSource } from '../../scripts/native/kotlin-snippets.mjs';
import { fencedBlocks } from '../../scripts/native/markdown-snippets.mjs';
import { snippetProblems, syntaxProblems } from '../../scripts/native/syntax-check.mjs';

describe('the docs snippets', () => {
  it('are found with their language and the line of their fence', () => {
    const text = [
      '# Title',
      '```kotlin',
      'val a = 1',
      '```',
      '',
      '  ~~~~swift',
      '  let b = 2',
      '  ```',
      '  ~~~~',
      '```dart title',
      'final c = 3;',
      '```',
    ].join('\n');
    expect(fencedBlocks(text, 'doc.md')).toEqual([
      { file: 'doc.md', line: 2, lang: 'kotlin', code: 'val a = 1' },
      { file: 'doc.md', line: 6, lang: 'swift', code: 'let b = 2\n```' },
      { file: 'doc.md', line: 10, lang: 'dart', code: 'final c = 3;' },
    ]);
  });

  it('report a broken Swift snippet at its line', async () => {
    const problems = await snippetProblems('swift', 'switch event {\ncase .ready: onReady(\ncase .error: break\n}');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]?.line).toBeGreaterThanOrEqual(2);
  });

  it('report a broken Dart snippet, whole file or statements, at its line', async () => {
    expect(await snippetProblems('dart', 'class A {\n  void f( {}\n}')).not.toEqual([]);
    const statements = await snippetProblems('dart', 'final a = 1;\nfinal b = ;\nprint(a);');
    expect(statements.map(({ line }) => line)).toContain(2);
  });

  it('accept Dart 3 as the Flutter package writes it, and statements outside a function', async () => {
    const dart3 = `sealed class ChatEvent { const ChatEvent(); }
final class ChatReady extends ChatEvent {}
abstract final class Scripts { static String f() => ''; }
void handle(ChatEvent event) {
  switch (event) {
    case ChatReady():
      print('ready');
  }
  final text = switch (event) { ChatReady() => 'ready' };
  print(text);
}`;
    expect(await syntaxProblems('dart', dart3)).toEqual([]);
    expect(await snippetProblems('dart', "import 'dart:convert';\nfinal a = jsonEncode({});\nawait f(a);")).toEqual([]);
  });

  it('accept Swift with compiler directives, #filePath and raw strings holding quotes', async () => {
    const swift =
      '#if canImport(WebKit)\nimport WebKit\n#endif\nlet here = URL(fileURLWithPath: #filePath)\nlet json = #"{"a": "b"}"#';
    expect(await syntaxProblems('swift', swift)).toEqual([]);
  });

  it('become Kotlin files: statements in a function, declarations and imports at the top level', () => {
    const statements = { file: 'docs/android.md', line: 12, code: 'val receiver = ChatBridgeReceiver { }' };
    expect(isFileSnippet(statements.code)).toBe(false);
    const wrapped = snippetSource(statements, 3);
    expect(wrapped).toContain('package dev.chatbridge.snippets.s3\n');
    expect(wrapped).toMatch(/fun snippet\(\) \{\nval receiver = ChatBridgeReceiver \{ \}\n\}\n$/);

    const file = { file: 'README.md', line: 40, code: 'import org.json.JSONObject\nimport java.util.UUID\nclass A' };
    expect(isFileSnippet('class A')).toBe(true);
    const source = snippetSource(file, 0);
    expect(source.match(/^import org\.json\.JSONObject$/gm)).toHaveLength(1);
    expect(source).toMatch(/^import java\.util\.UUID\nclass A\n$/m);
    expect(source).not.toContain('fun snippet()');

    // Imports go to the top, the statements into the function.
    const mixed = snippetSource(
      { file: 'a.md', line: 1, code: 'import android.graphics.Bitmap\nval b: Bitmap? = null' },
      1,
    );
    expect(mixed).toMatch(/^import android\.graphics\.Bitmap\nfun snippet\(\) \{\nval b: Bitmap\? = null\n\}\n$/m);
  });
});
