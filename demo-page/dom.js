// @ts-check
/**
 * The few DOM helpers the demo page uses. Text only: strings become text nodes or
 * `textContent`, never markup, so nothing the bridge or the backend sends is parsed as HTML.
 */

/** The element with this id: the page's ids are fixed in index.html. @param {string} id */
export const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The `<input>` with this id. @param {string} id */
export const input = (id) => /** @type {HTMLInputElement} */ (byId(id));

/**
 * An element whose children are elements or text; strings become text nodes, never markup.
 * @param {string} tag
 * @param {string} [className]
 * @param {...(Node | string)} children
 */
export function el(tag, className, ...children) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children);
  return element;
}

/** An error's message for the status line; thrown non-Errors as text. @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/** The status line under the header. @param {string} text @param {'ok' | 'error' | 'info'} [kind] */
export function setStatus(text, kind = 'info') {
  const status = byId('status');
  status.textContent = text;
  status.dataset['kind'] = kind;
}

/**
 * Runs `action` on each click of the element with this id; a failure shows in the status
 * line rather than as an unhandled rejection.
 * @param {string} id
 * @param {() => unknown} action
 */
export function onClick(id, action) {
  byId(id).addEventListener('click', () => {
    Promise.resolve()
      .then(action)
      .catch((error) => setStatus(messageOf(error), 'error'));
  });
}
