// @ts-check
/**
 * The Chatwoot mode's faults, switched by the same admin routes as the contract mode's
 * (POST /__admin/faults). Each plays a failure a real installation gives the widget API.
 */

export const CHATWOOT_FAULTS = /** @type {const} */ ([
  ['lost-answer', 'POST /messages and POST /conversations store the message, then drop the connection unanswered'],
  [
    'expired-contact-token',
    'Contact tokens issued so far are unknown (404 "Resource could not be found"); off brings them back',
  ],
  ['account-suspended', 'Every widget API call answers 401 {"error": "Account is suspended"}'],
  ['rate-limited', 'Every widget API call answers 429 text/plain "Retry later", without Retry-After (rack-attack)'],
  ['message-flood', 'POST /messages answers 422 {"message": "Too many messages", "attributes": ["base"]}'],
  ['hang', 'Every widget API call is accepted and never answered'],
  ['drop-connection', 'Every widget API call has its connection closed without an answer'],
]);

/** @typedef {typeof CHATWOOT_FAULTS[number][0]} ChatwootFaultName */
