// @ts-check
/**
 * The demo page: plays each native host around the injected bridge, on the bridge's public
 * surface only (the `ChatBridge` global of dist/chat-bridge.js and the typed client).
 *
 * For the host picked, the page installs a stand-in for that platform's native channel, then
 * (re)installs the bridge, so what the stand-in gets is exactly what the native side would:
 * a JSON string (React Native, Android, Flutter) or an object (iOS, browser). Each payload is
 * shown raw and in the platform's own terms, next to the backend's log of the requests the
 * bridge made. Nothing received is ever inserted as HTML: the DOM is built with text nodes.
 *
 * This file wires the parts together; each concern is its own module next to it.
 */
import { backendDownMessage, createAdmin, findBackend } from './backend-admin.js';
import { createBridgeHost, savedHost } from './bridge-host.js';
import { wireCommands } from './commands-panel.js';
import { byId, input, messageOf, onClick, setStatus } from './dom.js';
import { createEventLog } from './event-log.js';
import { createEventStore } from './event-store.js';
import { createFaultsPanel } from './faults-panel.js';
import { isHost } from './platform-forms.js';
import { createRequestLog } from './request-log.js';
import { installStandIns } from './stand-in-channels.js';

async function main() {
  // First, before the bridge can be injected: its channels and its fetch are the stand-ins'.
  const standIns = installStandIns();
  let backendUrl = '';
  const admin = createAdmin(standIns.realFetch, () => backendUrl);
  const log = createEventLog(byId('events'), createEventStore(localStorage));
  const host = createBridgeHost({ standIns, log });
  const faults = createFaultsPanel(byId('faults'), admin);
  const requests = createRequestLog(byId('requests'), admin, {
    down: () => setStatus(backendDownMessage(backendUrl), 'error'),
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
  input('offline').addEventListener('change', () => {
    const offline = input('offline').checked;
    standIns.setOffline(offline);
    document.body.classList.toggle('is-offline', offline);
  });
  onClick('reset-backend', () => faults.reset());
  onClick('clear-requests', () => requests.clear());
  onClick('clear-events', () => log.clear());

  try {
    backendUrl = await findBackend(standIns.realFetch);
  } catch (error) {
    setStatus(messageOf(error), 'error');
    return;
  }
  input('base-url').value = backendUrl;
  await host.install();
  try {
    await faults.refresh();
  } catch {
    setStatus(backendDownMessage(backendUrl), 'error');
  }
  requests.start();
}

void main();
