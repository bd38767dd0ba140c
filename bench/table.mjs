/**
 * The results table: one row a figure, with what it was compared with in the same run, the
 * ratio, the goal and whether it was met. Printed as aligned text and written as Markdown.
 */

export const COLUMNS = /** @type {const} */ (['figure', 'value', 'compared with', 'ratio', 'goal', 'met?']);

/**
 * @typedef {{ figure: string, value: string, compared: string, ratio: string, goal: string, met: boolean | undefined }} Row
 *   met: undefined where there is no goal (a reported figure or a comparison).
 */

const metText = (/** @type {boolean | undefined} */ met) => (met === undefined ? '—' : met ? 'yes' : 'NO');
const cells = (/** @type {Row} */ row) => [row.figure, row.value, row.compared, row.ratio, row.goal, metText(row.met)];

/** @param {Row[]} rows */
export function textTable(rows) {
  const lines = [COLUMNS.slice(), ...rows.map(cells)];
  const widths = COLUMNS.map((_, column) =>
    Math.max(...lines.map((line) => /** @type {string} */ (line[column]).length)),
  );
  const format = (/** @type {string[]} */ line) =>
    line
      .map((cell, column) => cell.padEnd(/** @type {number} */ (widths[column])))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('-+-');
  return [format(/** @type {string[]} */ (lines[0])), rule, ...lines.slice(1).map(format)].join('\n');
}

/** @param {Row[]} rows */
export function markdownTable(rows) {
  const escape = (/** @type {string} */ cell) => cell.replace(/\|/g, '\\|');
  return [
    `| ${COLUMNS.join(' | ')} |`,
    `| ${COLUMNS.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${cells(row).map(escape).join(' | ')} |`),
  ].join('\n');
}

/** 12288 → "12,288". @param {number} value @param {number} [digits] */
export const number = (value, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
