// @ts-check
/**
 * The "Host commands" and "Try an error" panels: what each button sends to the bridge, as a
 * host command or as a message the chat widget posts.
 */
import { generated, readFile, textBytes } from './attachments.js';
import { byId, input, onClick } from './dom.js';

/**
 * @param {{
 *   host: import('./bridge-host.js').BridgeHost,
 *   log: import('./event-log.js').EventLog,
 *   backendUrl: () => string,
 * }} deps
 */
export function wireCommands({ host, log, backendUrl }) {
  /** The contact fieldset's non-empty fields. */
  function contact() {
    /** @type {Record<string, string>} */
    const fields = {};
    for (const name of ['name', 'email', 'identifier']) {
      const value = input(`contact-${name}`).value;
      if (value !== '') fields[name] = value;
    }
    return fields;
  }

  let sent = 0;
  async function sendFromForm() {
    const files = [...(input('message-files').files ?? [])];
    const attachments = await Promise.all(files.map(readFile));
    // Read: the picker is emptied, as a chat app's is once a message goes (or is refused).
    input('message-files').value = '';
    const content = /** @type {HTMLTextAreaElement} */ (byId('message-text')).value;
    // Its own id, as a chat app gives each message (its bubble needs one, and a retry button
    // resends with it, so a backend that de-duplicates on echo_id keeps one): the Outbox can show
    // the text from the start, and the timeline names the message by it.
    const messageId = `demo-${Date.now().toString(36)}-${++sent}`;
    host.command('sendMessage', {
      content,
      messageId,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...contact(),
    });
  }

  /** Posts what the widget's iframe would, to this window. @param {string} data */
  function postAsWidget(data) {
    log.add({
      at: Date.now(),
      host: host.current(),
      dir: 'out',
      who: 'The chat widget posted',
      text: `window.postMessage(${JSON.stringify(data)})`,
    });
    window.postMessage(data, window.location.origin);
  }

  onClick('cmd-init', () => host.command('init'));
  onClick('cmd-get-conversation', () => host.command('getConversation', contact()));
  onClick('cmd-create-conversation', () => host.command('createConversation', contact()));
  onClick('cmd-send', sendFromForm);

  onClick('try-parse-error', () => postAsWidget('chatwoot-widget:{bad'));
  onClick('try-widget-error', () => postAsWidget('chatwoot-widget:{"event":"error"}'));
  onClick('try-widget-loaded', () => postAsWidget('chatwoot-widget:{"event":"loaded","locale":"en"}'));
  onClick('try-empty-message', () => host.command('sendMessage', { content: '' }));
  onClick('try-too-many-files', () =>
    host.command('sendMessage', {
      content: 'six files',
      attachments: [1, 2, 3, 4, 5, 6].map((n) => generated(`note-${n}.txt`, 'text/plain', textBytes(`note ${n}\n`))),
    }),
  );
  onClick('try-unsupported-type', () =>
    host.command('sendMessage', {
      content: 'a zip',
      // An empty zip archive: its end-of-central-directory record alone.
      attachments: [
        generated('archive.zip', 'application/zip', new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])),
      ],
    }),
  );
  onClick('try-file-too-large', () =>
    host.command('sendMessage', {
      content: 'a large photo',
      attachments: [generated('photo.jpg', 'image/jpeg', new Uint8Array(6 * 1024 * 1024))],
    }),
  );
  onClick('try-invalid-email', () => host.command('sendMessage', { content: 'hello', email: 'not-an-email' }));
  // Restores the baseUrl it changes once init is answered, so later commands go where the form said.
  onClick('try-wrong-path', async () => {
    const baseUrl = input('base-url');
    const before = baseUrl.value;
    baseUrl.value = `${backendUrl()}/no-such-api`;
    await host.install();
    try {
      await host.command('init');
    } finally {
      baseUrl.value = before;
      await host.install();
    }
  });
  onClick('try-unknown-method', () => host.command('deleteEverything'));
}
