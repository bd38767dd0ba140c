/**
 * docs/typed-client.md's snippet, type-checked by `npm run typecheck` (tsconfig.json takes in
 * test/). Not run. test/docs/snippets.spec.ts fails when a line of the snippet is not here.
 */
import { ChatBridgeError, type ChatClient } from '../../host-adapters/client.js';

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
