/**
 * The Swift arity check (scripts/native/swift-arity.mjs) must fail when it should: a pattern with
 * more or fewer elements than its ChatEvent case has associated values is reported at its line,
 * the right count is not, and what is not an enum-case pattern of ChatEvent is left alone. And the
 * iOS package's sources and the docs' Swift snippets have no such pattern (issue 35: the README's
 * `case let .error(code, message, _, _)` against the seed's two-value form).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownSnippets } from '../../scripts/native/markdown-snippets.mjs';
import { arityProblems, enumCases } from '../../scripts/native/swift-arity.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IOS_SOURCES = join(ROOT, 'host-adapters/ios');
const declared = async () =>
  enumCases(readFileSync(join(IOS_SOURCES, 'Sources/ChatBridge/ChatEvent.swift'), 'utf8'), 'ChatEvent');

describe('the Swift arity check', () => {
  it("counts each case's associated values, defaults and generic types included", async () => {
    const cases = await enumCases(
      'public enum ChatEvent {\n  case ready, widget(event: String, data: [String: Any] = [:])\n  case response(id: String, result: Result<Any?, Error>)\n}\nenum Other { case error(Int, Int, Int) }',
      'ChatEvent',
    );
    expect(Object.fromEntries(cases)).toEqual({ ready: 0, widget: 2, response: 2 });
  });

  it('reports a pattern of the wrong arity at its line, in a switch, an if case and a for case', async () => {
    const cases = new Map([['error', 2]]);
    const source = [
      'switch event {',
      'case .error(let code, let message): break',
      'case let .error(code, message, _, _): break',
      'default: break',
      '}',
      'if case .error(let code) = event {}',
      'for case let .error(a, b, c) in events {}',
    ].join('\n');
    const problems = await arityProblems(source, cases);
    expect(problems.map(({ line }) => line)).toEqual([3, 6, 7]);
    expect(problems[0]?.what).toBe('.error(...) has 4 element(s); the case declares 2 associated value(s)');
  });

  it("leaves alone what is not a pattern over the enum's cases", async () => {
    const cases = new Map([
      ['error', 2],
      ['response', 2],
    ]);
    const source = [
      'switch event {',
      'case .error: break',
      'case let .response(id, .failure(error)): print(id, error)',
      'case (.error(let code, _)): print(code)',
      'default: break',
      '}',
      'onEvent(.error(code: "a", message: "b", extra: 1))',
      'let e = ChatEvent.error(code: "a")',
    ].join('\n');
    expect(await arityProblems(source, cases)).toEqual([]);
  });

  it("finds none in the iOS package's files and the docs' Swift snippets, against ChatEvent.swift", async () => {
    const cases = await declared();
    expect(cases.get('error')).toBe(2);
    const files = ['Sources/ChatBridge', 'Tests/ChatBridgeTests'].flatMap((folder) =>
      readdir(join(IOS_SOURCES, folder)),
    );
    const snippets = markdownSnippets(ROOT, ['swift']);
    // The seed's form, as docs/ios.md gives it.
    expect(
      snippets.some(({ file, code }) => file === 'docs/ios.md' && code.includes('case .error(let code, let message)')),
    ).toBe(true);
    for (const file of files) expect(await arityProblems(readFileSync(file, 'utf8'), cases), file).toEqual([]);
    for (const { file, line, code } of snippets)
      expect(await arityProblems(code, cases), `${file}:${line}`).toEqual([]);
  });
});

function readdir(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.swift'))
    .map((name) => join(folder, name));
}
