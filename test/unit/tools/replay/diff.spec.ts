/**
 * The goldens' line diff (tools/replay/diff.ts).
 */
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../../../tools/replay/diff.js';

describe('lineDiff', () => {
  it('shows a changed line as - expected and + actual, with line numbers and context', () => {
    const expected = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].join('\n') + '\n';
    const actual = ['a', 'b', 'c', 'D', 'e', 'f', 'g'].join('\n') + '\n';
    expect(lineDiff(expected, actual, 1)).toBe(
      ['@@', '     3| c', '-    4| d', '+    4| D', '     5| e', ''].join('\n'),
    );
  });

  it('shows an added and a removed line', () => {
    expect(lineDiff('a\nb\n', 'a\nb\nc\n')).toBe('@@\n     1| a\n     2| b\n+    3| c\n');
    // Two changes further apart than twice the context are two hunks.
    expect(lineDiff('1\n2\n3\n4\n5\n6\n7\n', '1\n2\n3\n4\n5\n6\n', 0)).toBe('@@\n-    7| 7\n');
    expect(lineDiff('x\n2\n3\n4\n5\ny\n', '2\n3\n4\n5\n', 0)).toBe('@@\n-    1| x\n@@\n-    6| y\n');
  });

  it('has no changed lines for equal texts', () => {
    expect(lineDiff('a\nb\n', 'a\nb\n')).toBe('\n');
  });
});
