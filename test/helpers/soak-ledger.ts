/**
 * The soak's ledger: which WebView (and which load of it) queued each message, what each load
 * was told before it went away, and what the host sent again after a storage clear. At the end it
 * says what the backend must hold, and checks what it holds: nothing lost but what the host was
 * told could not be stored before its page went away, one `echo_id` per message, each WebView's
 * order kept.
 */
import { expect } from 'vitest';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import type { StoredMessage } from './page-servers.js';

/** One load of a WebView: from its (re)load to its next reload or its close. */
export interface Load {
  readonly view: string;
  gone: boolean;
  /** The events it delivered, read just before it went away (or at the end). */
  events: OutboundMessage[];
}

interface Queued {
  id: string;
  /** The load that holds it: the one that queued it, or the one the host sent it again through. */
  load: Load;
}

/** A POST /messages attempt as a page made it (where the engine lets the test see requests). */
export interface Attempt {
  content: string;
  echoId: string;
}

export class SoakLedger {
  readonly queued: Queued[] = [];
  /** Sent again by the host after `storage_wiped`: their order against the others is not kept. */
  readonly resent = new Set<string>();

  constructor(readonly seed: number) {}

  add(id: string, load: Load): void {
    this.queued.push({ id, load });
  }

  /**
   * What an app sends again when told `storage_wiped` (docs/delivery.md): what it still shows as
   * pending (no `sent` or `failed` event from any page) whose page is gone; a live page keeps its own.
   */
  pendingOfGone(): Array<{ id: string; view: string }> {
    const answered = new Set<string>();
    for (const { load } of this.queued)
      for (const event of load.events)
        if (event.type === 'message' && (event.state === 'sent' || event.state === 'failed'))
          answered.add(event.messageId);
    return this.queued
      .filter(({ id, load }) => load.gone && !answered.has(id))
      .map(({ id, load }) => ({ id, view: load.view }));
  }

  /** The host sent `id` again through `load`. */
  resend(id: string, load: Load): void {
    const entry = this.queued.find((queued) => queued.id === id) as Queued;
    entry.load = load;
    this.resent.add(id);
  }

  /** Whether the load told its host `id` could not be stored (sent from memory, lost if the page closes). */
  static toldUnstored(events: OutboundMessage[], id: string): boolean {
    return events.some(
      (event) => event.type === 'error' && event.code === 'storage_error' && event.message.includes(`${id} not stored`),
    );
  }

  /** Why a message may be missing at the end, or undefined when it must be there. */
  excuse({ id, load }: Queued): string | undefined {
    return load.gone && SoakLedger.toldUnstored(load.events, id)
      ? 'storage_error before its page went away'
      : undefined;
  }

  /** The messages the backend must hold in the end. */
  required(): string[] {
    return this.queued.filter((entry) => this.excuse(entry) === undefined).map(({ id }) => id);
  }

  /** Where each message stands, for a failure's message: its load, and the last state that load told. */
  describe(ids: string[]): string {
    return ids
      .map((id) => {
        const { load } = this.queued.find((queued) => queued.id === id) as Queued;
        const told = load.events.flatMap((event) =>
          event.type === 'message' && event.messageId === id
            ? [`${event.state}#${event.attempt}`]
            : event.type === 'error' && event.message.includes(id)
              ? [event.code]
              : [],
        );
        const where = `${load.view}${load.gone ? ', page gone' : ''}${this.resent.has(id) ? ', sent again' : ''}`;
        return `${id} (${where}; told ${told.join(' ') || 'nothing'})`;
      })
      .join(', ');
  }

  /** The final checks, each failure naming the seed. */
  check(stored: StoredMessage[], attempts: Attempt[] | undefined): { lost: number; excused: string[] } {
    const at = `[soak seed ${this.seed}]`;
    const contents = stored.map((message) => message.content);
    const queuedIds = new Set(this.queued.map(({ id }) => id));
    // Stored once each: a second copy would have had another echo_id (the backend keeps one per echo_id).
    expect(contents.length, `${at} a message stored twice`).toBe(new Set(contents).size);
    expect(
      contents.filter((content) => !queuedIds.has(content)),
      `${at} stored messages nobody queued`,
    ).toEqual([]);
    // The one echo_id of a message is its messageId, on every attempt that reached the backend...
    expect(
      stored.filter((message) => message.echo_id !== message.content),
      `${at} stored with another echo_id`,
    ).toEqual([]);
    // ...and on every attempt the pages made, answered or not.
    if (attempts) {
      // The attempts seen are all of them: every stored message was seen going out.
      const seen = new Set(attempts.map((attempt) => attempt.content));
      expect(
        contents.filter((content) => !seen.has(content)),
        `${at} stored without an attempt seen`,
      ).toEqual([]);
    }
    if (attempts)
      expect(
        attempts.filter((attempt) => attempt.echoId !== attempt.content),
        `${at} attempts with another echo_id`,
      ).toEqual([]);
    const held = new Set(contents);
    const missing = this.queued.filter(({ id }) => !held.has(id));
    expect(
      missing.filter((entry) => this.excuse(entry) === undefined).map(({ id, load }) => `${id} (${load.view})`),
      `${at} lost without the host being told`,
    ).toEqual([]);
    for (const view of new Set(this.queued.map(({ load }) => load.view))) {
      const order = this.queued
        .filter(({ load, id }) => load.view === view && held.has(id) && !this.resent.has(id))
        .map(({ id }) => id);
      const mine = new Set(order);
      expect(
        contents.filter((content) => mine.has(content)),
        `${at} WebView ${view}'s order`,
      ).toEqual(order);
    }
    return { lost: missing.length, excused: missing.map((entry) => `${entry.id}: ${this.excuse(entry)}`) };
  }
}
