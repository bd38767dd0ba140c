/**
 * The demo page's control bar as a person uses it: the fault list drops down from the bar, a
 * switch is flipped, and the list folds away again (Escape), leaving the page as it was.
 */
import type { Page } from 'playwright-core';

/** Switches a backend fault from the control bar; resolves once the switch shows the new state. */
export async function switchFaultInBar(page: Page, name: string, on: boolean): Promise<void> {
  const menu = page.locator('#faults-menu');
  if (!(await menu.evaluate((details) => (details as HTMLDetailsElement).open))) await menu.locator('summary').click();
  await page.locator(`#fault-${name}`).setChecked(on);
  // The bar names the faults switched on once the backend has confirmed the switch.
  const named = page.locator('#faults-on', { hasText: name });
  await named.waitFor({ state: on ? 'visible' : 'detached' });
  await page.keyboard.press('Escape');
}
