// @ts-check
/**
 * The page's layout behaviour: the phone's tabs (one pane at a time, demo.css hides the others),
 * the control bar's fault list dropping down and folding away again, and on a phone the bridge
 * settings folded (the status line already says what they are).
 */
import { byId } from './dom.js';

/** demo.css's phone width: tabs and a folded settings form below it. */
const PHONE = '(max-width: 640px)';

export function wireLayout() {
  const tabs = [...document.querySelectorAll('.tabs [data-tab]')];
  /** @param {string} name */
  const show = (name) => {
    document.body.dataset['tab'] = name;
    for (const tab of tabs) tab.setAttribute('aria-selected', String(tab.getAttribute('data-tab') === name));
  };
  for (const tab of tabs) tab.addEventListener('click', () => show(tab.getAttribute('data-tab') ?? 'outbox'));
  show(document.body.dataset['tab'] ?? 'outbox');

  if (window.matchMedia(PHONE).matches) byId('settings').removeAttribute('open');

  // The fault list stays open while switches are flipped; a click elsewhere or Escape folds it.
  const menu = /** @type {HTMLDetailsElement} */ (byId('faults-menu'));
  document.addEventListener('click', (event) => {
    if (menu.open && !menu.contains(/** @type {Node} */ (event.target))) menu.open = false;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') menu.open = false;
  });
}
