// @ts-check
/**
 * The demo page: plays each native host around the injected bridge, on the bridge's public
 * surface only (the `ChatBridge` global of dist/chat-bridge.js and the typed client).
 *
 * For the host picked, the page installs a stand-in for that platform's native channel, then
 * (re)installs the bridge, so what the stand-in gets is exactly what the native side would:
 * a JSON string (React Native, Android, iOS, Flutter) or an object (browser). Each payload is
 * shown raw and in the platform's own terms, next to the backend's log of the requests the
 * bridge made. Nothing received is ever inserted as HTML: the DOM is built with text nodes.
 *
 * This file wires the parts together; each concern is its own module next to it.
 */
import { backendDownMessage, createAdmin, findBackend } from './backend-admin.js';
import { createBackendPicker } from './backend-picker.js';
import { createBridgeHost, savedHost } from './bridge-host.js';
import { createCommandWatch } from './command-watch.js';
import { wireCommands } from './commands-panel.js';
import { byId, input, messageOf, onClick, setStatus } from './dom.js';
import { createErrorNotice } from './error-notice.js';
import { createEventLog } from './event-log.js';
import { createEventStore } from './event-store.js';
import { createFaultsPanel } from './faults-panel.js';
import { createOutboxPanel } from './outbox-panel.js';
import { wireLayout } from './page-layout.js';
import { isHost } from './platform-forms.js';
import { createRequestsColumn } from './requests-column.js';
import { observeRequests } from './request-observer.js';
import { installNativeSide } from './native-side.js';
import { createTimeline } from './timeline-model.js';
import { createTimelineView } from './timeline-view.js';

async function main() {
  wireLayout();
  // First, before the bridge can be injected: its channels and its fetch are the stand-ins'.
  const nativeSide = installNativeSide();
  let backendUrl = '';
  const admin = createAdmin(nativeSide.realFetch, () => backendUrl);
  const log = createEventLog(byId('events'), createEventStore(localStorage));
  // The rows' buttons send host commands as a chat UI's would (`host` is made just below).
  const outbox = createOutboxPanel(byId('outbox'), {
    cancel: (messageId) => host.command('cancelMessage', { messageId }),
    resend: (messageId, content) => host.command('sendMessage', { content, messageId }),
  });
  const watched = createCommandWatch(outbox);
  // An error also shows where the user is, when the Events pane is out of view (a phone).
  const notice = createErrorNotice();
  /** @type {import('./command-watch.js').CommandWatch} */
  const watch = {
    ...watched,
    received(message) {
      watched.received(message);
      notice.received(message);
    },
  };
  const timeline = createTimeline();
  const timelineView = createTimelineView(byId('timeline'), timeline);
  // Also before the bridge: every request it makes goes through the observer.
  observeRequests(timeline, watch.laneOf, timelineView.changed);
  const host = createBridgeHost({ nativeSide, log, watch });
  const faults = createFaultsPanel(byId('faults'), byId('faults-on'), admin);
  const requests = createRequestsColumn(byId('requests'), admin, {
    down: () => setStatus(backendDownMessage(backendUrl), navigator.onLine === false ? 'info' : 'error'),
    back: () => host.describeInstall(),
  });

  log.showSaved();
  const picked = new URLSearchParams(window.location.search).get('host') ?? savedHost();
  if (isHost(picked)) input('host').value = picked;

  byId('config').addEventListener('submit', (event) => {
    event.preventDefault();
    void host.install();
  });
  input('host').addEventListener('change', () => void host.install());
  onClick('base-url-default', () => {
    input('base-url').value = backendUrl;
    return host.install();
  });
  wireCommands({ host, log, backendUrl: () => backendUrl });
  // The header and the control bar turn orange while the switch is on or the device itself is offline.
  const showOffline = () =>
    document.body.classList.toggle('is-offline', input('offline').checked || navigator.onLine === false);
  input('offline').addEventListener('change', () => {
    nativeSide.setOffline(input('offline').checked);
    showOffline();
  });
  window.addEventListener('offline', showOffline);
  window.addEventListener('online', showOffline);
  onClick('reset-backend', () => faults.reset());
  onClick('clear-requests', () => requests.clear());
  onClick('clear-events', () => log.clear());
  onClick('list-outbox', () => host.command('listOutbox'));
  onClick('clear-timeline', () => timelineView.clear());

  /** @type {Awaited<ReturnType<typeof createBackendPicker>>} */
  let picker;
  try {
    picker = await createBackendPicker(nativeSide.realFetch, await findBackend(nativeSide.realFetch));
  } catch (error) {
    setStatus(messageOf(error), 'error');
    return;
  }
  backendUrl = picker.url();
  picker.onChange(() => {
    backendUrl = input('base-url').value = picker.url();
    void host.install().then(() => faults.refresh().catch(() => setStatus(backendDownMessage(backendUrl), 'error')));
  });
  input('base-url').value = backendUrl;
  await host.install();
  // What an earlier page left waiting shows at once; message events keep the list current.
  host.command('listOutbox');
  try {
    await faults.refresh();
  } catch {
    setStatus(backendDownMessage(backendUrl), 'error');
  }
  requests.start();
}

void main();
