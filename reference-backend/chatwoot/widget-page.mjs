// @ts-check
/**
 * The widget page, as Chatwoot's mobile SDKs load it: GET /widget?website_token=…&cw_conversation=…
 * (app/controllers/widgets_controller.rb). A `cw_conversation` that decodes to a contact of this
 * inbox keeps that contact and is rendered back as the page's token (`set_token`, `set_contact`);
 * anything else makes a new contact with a new token (`build_contact`). The page sets
 * `window.chatwootWebChannel` and `window.authToken` as app/views/widgets/show.html.erb does, then
 * loads a stand-in for the widget's bundle (WIDGET_SCRIPT) instead of Chatwoot's Vue app.
 */
import { NOT_FOUND_PAGE } from './errors.mjs';

export const WIDGET_SCRIPT_PATH = '/packs/js/widget-stand-in.js';

/**
 * What the widget's App.vue `mounted` does that an SDK host sees: in a frame it posts `loaded`
 * to its parent (IFrameHelper.sendMessage, app/javascript/widget/helpers/utils.js); in a React
 * Native WebView it posts it to `window.ReactNativeWebView` (RNHelper.sendMessage). Both send
 * 'chatwoot-widget:' + JSON of `{event: 'loaded', config: {authToken, channelConfig}}`
 * (`sendLoadedEvent`, `sendRNWebViewLoadedEvent`). A page that is neither (top level, no React
 * Native) posts nothing, as the widget does not.
 */
const STAND_IN = `(function () {
  var message = 'chatwoot-widget:' + JSON.stringify({
    event: 'loaded',
    config: { authToken: window.authToken, channelConfig: window.chatwootWebChannel },
  });
  function mounted() {
    if (window.self !== window.top) window.parent.postMessage(message, '*');
    if (window.ReactNativeWebView) window.ReactNativeWebView.postMessage(message);
    document.getElementById('app').setAttribute('data-loaded', 'true');
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mounted);
  else mounted();
})();
`;

/** @param {unknown} value JSON safe inside a <script> element */
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * @param {{
 *   store: import('./store.mjs').ChatwootStore,
 *   tokens: ReturnType<typeof import('./tokens.mjs').createTokenService>,
 * }} deps
 */
export function createWidgetPage({ store, tokens }) {
  /** @type {import('./routes.mjs').Handler} */
  async function widget(_req, url) {
    const inbox = store.inbox(url.searchParams.get('website_token'));
    // WidgetsController is an ActionController::Base: find_by! is Rails' 404 page, not JSON.
    if (!inbox) return NOT_FOUND_PAGE();
    const given = url.searchParams.get('cw_conversation') ?? undefined;
    const payload = tokens.decode(given);
    const known = payload.inbox_id === inbox.id ? store.findContactInbox(inbox, payload.source_id) : undefined;
    const session = known ?? store.createContactInbox(inbox);
    const token = known && given ? given : tokens.generate({ source_id: session.sourceId, inbox_id: inbox.id });
    const channel = { websiteName: inbox.name, websiteToken: inbox.websiteToken, locale: 'en' };
    const html = `<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>Chatwoot widget (reference stand-in)</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <script>
      window.chatwootWebChannel = ${scriptJson(channel)};
      window.chatwootPubsubToken = ${scriptJson(session.pubsubToken)};
      window.authToken = ${scriptJson(token)};
    </script>
    <script src="${WIDGET_SCRIPT_PATH}"></script>
  </head>
  <body>
    <div id="app"></div>
  </body>
</html>
`;
    return { status: 200, raw: { contentType: 'text/html; charset=utf-8', text: html } };
  }

  return {
    '/widget': { GET: widget },
    [WIDGET_SCRIPT_PATH]: {
      GET: async () => ({ status: 200, raw: { contentType: 'text/javascript; charset=utf-8', text: STAND_IN } }),
    },
  };
}
