/**
 * A backend profile: where the bridge's calls go on one kind of backend, how its credentials
 * travel and how its failures read, chosen once from the `backend` option (bridge.ts). api.ts and
 * http.ts are written against it and hold no per-backend branches. The contract's profile, here,
 * is the default; Chatwoot's widget API is chatwoot-profile.ts.
 */
import type { BridgeError } from '../protocol/errors.js';
import { ACCEPTED_TYPES } from '../protocol/service-rules.js';
import type { OutboxRecord } from './outbox-record.js';
import { authTokenOf } from './backend-bodies.js';
import { httpError, type ApiResponse } from './http-errors.js';
import { bearer, type ApiRequest, type Sign } from './http.js';

/** A method and a path, relative to `baseUrl`. */
export type Route = Pick<ApiRequest, 'method' | 'path'>;

/** What a config answer gives: the auth token, the config as the host gets it, and other credentials in it. */
export interface Session {
  token: string | undefined;
  config: Record<string, unknown>;
  /** Values to scrub from everything that leaves (a Chatwoot `pubsub_token`). */
  secrets: string[];
}

export interface Profile {
  /** The call that gives an auth token. */
  config: Route;
  conversationsPath: string;
  messagesPath: string;
  /** The name of the config answer's token, as a failure names it when it is missing. */
  tokenName: string;
  /** `website_token` goes on every call, not only on the config call. */
  tokenEverywhere?: boolean;
  /**
   * The status that says the auth token is no longer known: a new one is fetched (without the old
   * one) and the call made once more. The contract's 401; Chatwoot's 404.
   */
  stale: number;
  /** Writes the auth token into a request's headers. */
  sign: Sign;
  /** The config answer read, or undefined when it is not an object. */
  session(response: ApiResponse): Session;
  /** The multipart field of each attachment. */
  fileField: string;
  /** The MIME types the backend accepts: checked before sending, and on records read back. */
  fileTypes: RegExp;
  /** Its rate limits pass on their own: the outbox keeps a message through a 429 (retry-policy.ts). */
  rateLimitPasses?: boolean;
  /** An HTTP answer that is a failure, as the error the host gets. */
  error(request: { method: string; path: string }, response: ApiResponse): BridgeError;
  /**
   * Where the contact's fields go, on a backend that makes a conversation only with its first
   * message (Chatwoot's `PATCH …/contact`): set before a message that carries new ones, and by
   * createConversation. Without it they go with `POST` conversations (the contract).
   */
  contactPath?: string;
  /** The token of the widget's contact (its `loaded` event, the page's `cw_conversation`) is used. */
  widgetContact?: boolean;
  /**
   * Where the backend stores a repeat (no echo_id check): the server's messages `list` (a `GET`
   * of the messages path) searched for `record`, sent by an attempt that began at `since`
   * (server time, ms) and got no answer; `claimed` are the server ids already settled.
   */
  findSent?(list: unknown, record: OutboxRecord, since: number, claimed: Set<unknown>): unknown;
}

/** The service contract's profile (../shared/spec/chat-service-errors.md; docs/reference.md). */
export const CONTRACT: Profile = {
  config: { method: 'GET', path: '/config' },
  conversationsPath: '/conversations',
  messagesPath: '/messages',
  tokenName: 'authToken',
  stale: 401,
  sign: bearer,
  session({ body }) {
    // The host gets the rest of the config; the auth token stays inside the bridge.
    const config: Record<string, unknown> = { ...(body as object) };
    delete config['authToken'];
    return { token: authTokenOf(body), config, secrets: [] };
  },
  fileField: 'attachments[]',
  fileTypes: ACCEPTED_TYPES,
  error: httpError,
};
