/** The few statistics the bench reports: medians of repeated runs, and the spread beside them. */

/** @param {number[]} values */
export function median(values) {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? /** @type {number} */ (sorted[middle])
    : /** @type {number} */ (sorted[middle - 1] + /** @type {number} */ (sorted[middle])) / 2;
}

/** The p-quantile (0..1), nearest rank. @param {number[]} values @param {number} p */
export function quantile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]);
}

/** "1.23 ms (p25 1.1, p75 1.4)" style spread for the details line. @param {number[]} values */
export function spread(values) {
  return { median: median(values), p25: quantile(values, 0.25), p75: quantile(values, 0.75), n: values.length };
}
