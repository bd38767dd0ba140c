/**
 * docs/typed-client.md's snippets, type-checked by `npm run typecheck` (tsconfig.json takes in
 * test/). Not run. test/docs/snippets.spec.ts fails when a line of the snippet is not here.
 */
import { ChatBridgeError, type ChatBridgeErrorCode, type ChatClient } from '../../host-adapters/client.js';

// What the page leaves to the reader: a client, the e-mail typed in, and the form's own error display.
declare const client: ChatClient;
declare const email: string;
declare function showFieldErrors(errors: ChatBridgeError['errors']): void;

export async function createContact(): Promise<void> {
  // --- docs/typed-client.md, verbatim from here ---
  try {
    await client.createConversation({ email });
  } catch (error) {
    if (error instanceof ChatBridgeError && error.code === 'validation_error') showFieldErrors(error.errors);
  }
  // --- to here ---
}

// --- docs/typed-client.md, verbatim from here ---
export function isWorthRetrying(code: ChatBridgeErrorCode): boolean {
  switch (code) {
    case 'network_error':
    case 'rate_limited':
    case 'server_error':
    case 'storage_error':
    case 'channel_error':
    case 'page_gone':
    case 'timeout':
      return true;
    case 'parse_error':
    case 'auth_failed':
    case 'config_error':
    case 'bad_request':
    case 'empty_message':
    case 'too_many_files':
    case 'unsupported_file_type':
    case 'file_too_large':
    case 'not_found':
    case 'validation_error':
    case 'widget_error':
    case 'inbox_switched':
    case 'cancelled':
    case 'unknown_method':
    case 'closed':
    case 'storage_wiped':
    case 'storage_restored':
      return false;
    default: {
      const unhandled: never = code;
      throw new Error(`unhandled error code ${String(unhandled)}`);
    }
  }
}
// --- to here ---
