/**
 * A readable line diff for golden files: the changed lines with a little context, marked
 * `-` (expected) and `+` (actual), each with its line number. LCS-based; goldens are small.
 */
export function lineDiff(expected: string, actual: string, context = 2): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  // Both end with a newline: the empty string after it is not a line.
  if (a.length > 1 && b.length > 1 && a[a.length - 1] === '' && b[b.length - 1] === '') {
    a.pop();
    b.pop();
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const rows: Array<{ mark: ' ' | '-' | '+'; text: string; line: number }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      rows.push({ mark: ' ', text: a[i]!, line: j + 1 });
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Expected before actual where either order would do, as diff(1) prints them.
      rows.push({ mark: '-', text: a[i]!, line: i + 1 });
      i++;
    } else {
      rows.push({ mark: '+', text: b[j]!, line: j + 1 });
      j++;
    }
  }
  const shown = new Set<number>();
  rows.forEach((row, index) => {
    if (row.mark === ' ') return;
    for (let k = Math.max(0, index - context); k <= Math.min(rows.length - 1, index + context); k++) shown.add(k);
  });
  const out: string[] = [];
  let last = -2;
  [...shown]
    .sort((x, y) => x - y)
    .forEach((index) => {
      if (index !== last + 1) out.push('@@');
      const row = rows[index]!;
      out.push(`${row.mark} ${String(row.line).padStart(4)}| ${row.text}`);
      last = index;
    });
  return `${out.join('\n')}\n`;
}
