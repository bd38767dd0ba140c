/**
 * The outbox soak, the same schedule in either engine (Chromium: test/browser/outbox-soak.spec.ts,
 * WebKit: test/webkit/outbox-soak.spec.ts). Two WebViews of one app (a and b, sharing storage and
 * locks) and a third (c) send hundreds of messages through a seeded schedule of backend faults
 * (503 with and without Retry-After, dropped connections, slow answers), reloads and offline
 * spells; c is closed while one of its messages is being sent, and the site's storage is cleared
 * ("clear site data", an app's logout) under the open pages. The ledger (soak-ledger.ts) then
 * checks what the backend holds. Every failure names the seed; `SOAK_SEED=<n>` plays a run again.
 */
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import type { ReferenceBackend, StoredMessage } from './page-servers.js';
import { seeded } from './seeded.js';
import { SoakLedger, type Attempt, type Load } from './soak-ledger.js';

/** A WebView of the soak, in either engine. */
export interface SoakPage {
  /** Sends a command and waits for its answer. */
  call(method: string): Promise<{ ok: boolean }>;
  /** `sendMessage` with `messageId` as its id and its text, without waiting for it. */
  send(messageId: string): Promise<void>;
  /** Every event the page delivered since it (re)loaded. */
  messages(): Promise<OutboundMessage[]>;
  mark(): Promise<number>;
  waitFor(pattern: Record<string, unknown>, options: { since?: number; timeoutMs?: number }): Promise<unknown>;
  /** How many messages the page's outbox holds (its own and those it took on). */
  waiting(): Promise<number>;
  /** The offline stand-in (kept in sessionStorage); `announce` dispatches offline/online. */
  setOffline(offline: boolean, announce?: boolean): Promise<void>;
  /** The message ids of the outbox records in the site's IndexedDB now. */
  recordIds(): Promise<string[]>;
  reload(): Promise<void>;
  close(): Promise<void>;
}

export interface SoakEngine {
  readonly backend: ReferenceBackend;
  /** A new WebView; beside another, it shares that one's storage and locks (one app). */
  open(beside?: SoakPage): Promise<SoakPage>;
  /** Clears the site's stored data (IndexedDB, localStorage, sessionStorage) under its open pages. */
  clearSiteData(through: SoakPage): Promise<void>;
  storedMessages(): Promise<StoredMessage[]>;
  /** Every POST /messages attempt the pages made so far, where the engine lets the test see them. */
  attempts?(): Attempt[];
}

export interface SoakReport {
  seed: number;
  queued: number;
  stored: number;
  /** Missing, each with the reason the host was given. */
  excused: string[];
  reloads: number;
  offlineSpells: number;
  faultSpells: number;
  /** POST /messages attempts the pages made (where the engine shows them). */
  attempts: number | undefined;
  /** Messages the host sent again after `storage_wiped` (pending, their page gone). */
  resent: number;
  ms: number;
}

/** The seed of a soak: `SOAK_SEED` when set (to play a failed run again), else the spec's own. */
export const soakSeed = (fallback: number) => Number(process.env['SOAK_SEED'] ?? fallback);

/** `SOAK_DEBUG=1` prints the schedule as it is played. */
const trace = (...parts: unknown[]) => process.env['SOAK_DEBUG'] && console.info('[soak]', ...parts);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pad = (i: number) => String(i).padStart(3, '0');
const FAULTS = ['service-unavailable', 'drop-connection', 'slow'] as const;

/** Runs the soak; resolves with its figures, rejects naming the seed. */
export async function runSoak(engine: SoakEngine, seed: number, messages: number): Promise<SoakReport> {
  try {
    return await soak(engine, seed, messages);
  } catch (error) {
    if (error instanceof Error && !error.message.includes(`seed ${seed}`))
      error.message = `[soak seed ${seed}; SOAK_SEED=${seed} plays it again] ${error.message}`;
    throw error;
  } finally {
    for (const fault of FAULTS) engine.backend.setFault(fault, false);
  }
}

async function soak(engine: SoakEngine, seed: number, total: number): Promise<SoakReport> {
  const started = Date.now();
  const random = seeded(seed);
  const ledger = new SoakLedger(seed);
  const { backend } = engine;
  const pages = new Map<string, SoakPage>();
  const loads = new Map<string, Load>();
  const last = new Map<string, string>();
  const offline = new Set<string>();
  const counts = { reloads: 0, offlineSpells: 0, faultSpells: 0, resent: 0 };
  /** The backend's fault now, for a few messages (one at a time, so a run's backlog stays bounded). */
  let spell: { fault: (typeof FAULTS)[number]; left: number } | undefined;
  const endSpell = () => {
    if (spell) backend.setFault(spell.fault, false);
    if (spell) trace('fault over', spell.fault);
    spell = undefined;
  };

  const open = async (view: string, beside?: SoakPage) => {
    pages.set(view, await engine.open(beside));
    loads.set(view, { view, gone: false, events: [] });
  };
  /** The load ends: what it was told is read first (a page's events go with it). */
  const leave = async (view: string) => {
    const load = loads.get(view) as Load;
    load.events = await (pages.get(view) as SoakPage).messages();
    load.gone = true;
  };
  const send = async (view: string, id: string) => {
    ledger.add(id, loads.get(view) as Load);
    last.set(view, id);
    await (pages.get(view) as SoakPage).send(id);
  };
  /**
   * Before a reload: the view's last message is on disk, answered, or was told unstored. What the
   * host was told is queued survives the reload; the test does not reload faster than storage.
   */
  const settled = async (view: string) => {
    const page = pages.get(view) as SoakPage;
    const id = last.get(view);
    if (id === undefined) return;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const events = await page.messages();
      const answered = events.some(
        (event) =>
          event.type === 'message' && event.messageId === id && (event.state === 'sent' || event.state === 'failed'),
      );
      if (answered || SoakLedger.toldUnstored(events, id) || (await page.recordIds()).includes(id)) return;
      if (Date.now() > deadline) throw new Error(`${id} neither stored nor answered within 20 s`);
      await sleep(50);
    }
  };
  const reload = async (view: string) => {
    await settled(view);
    await leave(view);
    trace('reload', view);
    await (pages.get(view) as SoakPage).reload();
    loads.set(view, { view, gone: false, events: [] });
    counts.reloads++;
  };
  const toggleOffline = async (view: string) => {
    const going = !offline.has(view);
    if (going) offline.add(view);
    else offline.delete(view);
    counts.offlineSpells += going ? 1 : 0;
    trace(going ? 'offline' : 'online', view);
    await (pages.get(view) as SoakPage).setOffline(going);
  };
  /** A fault for the next few messages: 503 with or without Retry-After, dropped connections, slow answers. */
  const startSpell = () => {
    counts.faultSpells++;
    const roll = random();
    const left = 2 + Math.floor(random() * 9);
    const slowMs = String(150 + Math.floor(random() * 450));
    const [fault, detail] =
      roll < 0.35
        ? (['service-unavailable', undefined] as const)
        : roll < 0.6
          ? (['service-unavailable', '1'] as const)
          : roll < 0.85
            ? (['drop-connection', undefined] as const)
            : (['slow', slowMs] as const);
    spell = { fault, left };
    trace('fault', fault, detail, left);
    backend.setFault(fault, true, detail);
  };
  /** C sends once more, slowly answered, and is closed while that request is under way. */
  const closeMidSend = async () => {
    endSpell();
    if (offline.has('c')) await toggleOffline('c');
    const c = pages.get('c') as SoakPage;
    // What c has taken on goes first (other pages' backlogs too): slow answers from then on only.
    const deadline = Date.now() + 30_000;
    while ((await c.waiting()) > 0 && Date.now() < deadline) await sleep(100);
    backend.setFault('slow', true, '600');
    const since = await c.mark();
    await send('c', 'c-last');
    // Another page may be sending (its turn ends after one send): a generous deadline.
    await c.waitFor({ type: 'message', messageId: 'c-last', state: 'sending' }, { since, timeoutMs: 30_000 });
    await leave('c');
    await c.close();
    pages.delete('c');
    backend.setFault('slow', false);
  };
  /** The site's storage cleared under a and b; the host must be told. */
  const clear = async () => {
    const a = pages.get('a') as SoakPage;
    const b = pages.get('b') as SoakPage;
    const marks = [await a.mark(), await b.mark()];
    // Calm for the moment of the clear, so that the test can read what the backend holds.
    endSpell();
    await engine.clearSiteData(a);
    // The offline flags went with the sessionStorage: set again, as the device is still offline.
    for (const view of offline) await (pages.get(view) as SoakPage).setOffline(true, false);
    const told = (page: SoakPage, since: number) =>
      page.waitFor({ type: 'error', code: 'storage_wiped' }, { since, timeoutMs: 20_000 });
    await Promise.any([told(a, marks[0] as number), told(b, marks[1] as number)]).catch(() => {
      throw new Error("no open page told its host the site's storage was wiped");
    });
    // The app sends again, with the same messageId, what it still shows as pending of pages that are gone.
    for (const view of pages.keys()) (loads.get(view) as Load).events = await (pages.get(view) as SoakPage).messages();
    const pending = ledger.pendingOfGone();
    trace('wiped; sent again', pending.map(({ id }) => id).join(' '));
    for (const { id, view } of pending) {
      const through = pages.has(view) ? view : 'a';
      ledger.resend(id, loads.get(through) as Load);
      last.set(through, id);
      await (pages.get(through) as SoakPage).send(id);
    }
    counts.resent = pending.length;
  };

  await open('a');
  // The conversation exists before the first message: no page creates one of its own.
  const opened = await (pages.get('a') as SoakPage).call('getConversation');
  if (!opened.ok) throw new Error(`getConversation answered ${JSON.stringify(opened)}`);
  await open('b', pages.get('a'));
  await open('c', pages.get('a'));
  const closeAt = Math.floor(total * 0.4);
  const clearAt = Math.floor(total * 0.65);
  for (let i = 0; i < total; i++) {
    const roll = random();
    const view = roll < 0.45 || (roll >= 0.9 && !pages.has('c')) ? 'a' : roll < 0.9 ? 'b' : 'c';
    await send(view, `${view}-${pad(i)}`);
    trace('sent', `${view}-${pad(i)}`, Date.now() - started);
    if (spell && --spell.left === 0) endSpell();
    const event = random();
    if (i === closeAt) await closeMidSend();
    else if (i === clearAt) await clear();
    else if (event < 0.08) {
      if (spell) endSpell();
      else startSpell();
    } else if (event < 0.11) await reload(view);
    else if (event < 0.16) await toggleOffline(view);
    else await sleep(random() * 40);
  }

  endSpell();
  for (const view of [...offline]) await toggleOffline(view);
  // A new message retries at once what waits (backoffs may have grown to a minute).
  await send('a', 'a-end');
  await send('b', 'b-end');
  const required = new Set(ledger.required());
  const deadline = Date.now() + 60_000;
  for (;;) {
    const held = new Set((await engine.storedMessages()).map((message) => message.content));
    const missing = [...required].filter((id) => !held.has(id));
    if (missing.length === 0) break;
    if (Date.now() > deadline) {
      for (const view of pages.keys())
        (loads.get(view) as Load).events = await (pages.get(view) as SoakPage).messages();
      throw new Error(
        `[soak seed ${seed}] after 60 s the backend still lacks ${missing.length}: ${ledger.describe(missing)}`,
      );
    }
    await sleep(500);
  }
  // A moment more: a late repeat (another echo_id) or a late send of a message let go would show now.
  await sleep(1_500);
  const stored = await engine.storedMessages();
  const { excused } = ledger.check(stored, engine.attempts?.());
  return {
    seed,
    queued: ledger.queued.length,
    stored: stored.length,
    excused,
    ...counts,
    attempts: engine.attempts?.().length,
    ms: Date.now() - started,
  };
}
