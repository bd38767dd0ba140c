/**
 * The pages a suite opens, closed after each test (the last opened first, as an app tears its
 * WebViews down) and the backend's log and faults reset, in either engine's suites.
 */
import { afterEach } from 'vitest';

/**
 * `open` that keeps each page it opens, and an afterEach that closes them and calls `reset`.
 * Call it in the suite's body, as a hook.
 */
export function closingAfterEach<Options, Opened extends { close(): Promise<void> }>(
  open: (options: Options) => Promise<Opened>,
  reset: () => void,
): (options: Options) => Promise<Opened> {
  const opened: Opened[] = [];
  afterEach(async () => {
    for (const page of opened.splice(0).reverse()) await page.close();
    reset();
  });
  return async (options) => {
    const page = await open(options);
    opened.push(page);
    return page;
  };
}
