/**
 * The backend calls: config and auth here, conversations and messages in conversation-calls.ts,
 * on the backend's profile (profile.ts: the contract's by default, or Chatwoot's widget API,
 * chatwoot-profile.ts).
 *
 * Token transport (the contract leaves it open): the website token travels as the
 * `website_token` query parameter of the config call (on Chatwoot, of every call), which keeps
 * that request free of custom headers (no preflight) and matches the widget API the contract
 * describes; it is a public identifier printed in every page's widget snippet. The auth token
 * travels in a header (the profile's `sign`: the contract's `Authorization: Bearer <token>`,
 * Chatwoot's `X-Auth-Token`), never in a URL.
 */
import { bridgeError, gotNoAnswer } from '../protocol/errors.js';
import { CONTRACT } from './profile.js';
import type { ApiRequest, ApiResponse, Http } from './http.js';
import { route } from './http-errors.js';
import { conversationCalls, type ConversationCalls } from './conversation-calls.js';
import { oneAtATime } from './one-at-a-time.js';

export interface Api extends ConversationCalls {
  /** Fetches the config (one fetch shared by concurrent callers) and keeps its auth token. */
  init(): Promise<Record<string, unknown>>;
  /** Whether the API origin answers (any answer the page can read): a config fetch, which also renews the token. */
  reachable(): Promise<boolean>;
}

/** The API as the bridge holds it, with what the host commands do not call. */
export interface BridgeApi extends Api {
  /**
   * The token of the contact the widget page shows (Chatwoot: its `loaded` event, the page's
   * `cw_conversation`): used from now on, where the profile has the widget's contact.
   */
  useContactToken(token: string): void;
}

/**
 * The session with the backend (the auth token, the server's clock) and the calls made in it.
 *
 * @param onToken told every token the bridge learns, so outbound redaction knows what to scrub
 * @param now the device's clock, for when a message's attempt began
 */
export function createApi(
  http: Http,
  websiteToken: string | undefined,
  onToken: (token: string) => void,
  profile = CONTRACT,
  now = Date.now,
): BridgeApi {
  const CONFIG = profile.config;
  let authToken: string | undefined;
  /** The server's clock less the device's, from the last answer's `Date` (0 where it cannot be read). */
  let skew = 0;
  /** The website token on the config call, or on every call (the profile says). */
  const withToken = (request: ApiRequest): ApiRequest => ({
    query: { website_token: websiteToken as string },
    ...request,
  });

  async function fetchConfig(): Promise<Record<string, unknown>> {
    if (!websiteToken) {
      throw bridgeError('auth_failed', `[${route(CONFIG)}] no websiteToken option`, 401);
    }
    // Chatwoot's config call keeps the contact whose token it is given
    // (app/controllers/api/v1/widget/configs_controller.rb); the contract's takes none.
    const response = await http(withToken(CONFIG), profile.widgetContact ? authToken : undefined);
    if (response.status < 200 || response.status > 299) throw profile.error(CONFIG, response);
    const { token, config, secrets } = profile.session(response);
    secrets.forEach(onToken);
    if (!token) {
      const what =
        response.text.trim() === ''
          ? 'empty body'
          : response.body === undefined
            ? 'body not JSON'
            : `no ${profile.tokenName}`;
      throw bridgeError('config_error', `[${route(CONFIG)}] ${response.status}: ${what}`, response.status);
    }
    onToken(token);
    authToken = token;
    return config;
  }

  const init = oneAtATime(fetchConfig);
  const calls = conversationCalls(authorized, profile, now, (deviceTime) => deviceTime + skew);

  /**
   * The request with the auth token, and its answer whatever the status. The profile's `stale`
   * status (the contract's 401: the token expired or was rotated; Chatwoot's 404: the contact is
   * unknown) renews the token once and sends the request once more; the second answer is the
   * answer (never a loop).
   */
  async function authorized(request: ApiRequest): Promise<ApiResponse> {
    if (profile.tokenEverywhere) request = withToken(request);
    // Without an await when the token is known: the request starts in this very task.
    if (!authToken) await init();
    const token = authToken;
    const response = await http(request, token);
    // Only where repeats are looked for: a cross-origin XHR's Date is not exposed, and reading it logs an error.
    const date = profile.findSent && Date.parse(response.headers.get('Date') as string);
    if (date) skew = date - now();
    if (response.status !== profile.stale) return response;
    // A concurrent request may have renewed the token already; then its token is the new one.
    // The config call is made without the old token: on Chatwoot that is what the widget does
    // when its token is unknown, a new contact (app/controllers/widgets_controller.rb `build_contact`).
    if (authToken === token) authToken = undefined;
    if (!authToken) await init();
    return http(request, authToken);
  }

  return Object.assign(calls, {
    init,
    reachable: () =>
      init().then(
        () => true,
        (thrown: unknown) => !gotNoAnswer(thrown),
      ),
    useContactToken(token: string) {
      if (profile.widgetContact) authToken = token;
    },
  });
}
