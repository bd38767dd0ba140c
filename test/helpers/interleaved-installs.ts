/**
 * Sends and installs for two inboxes interleaved in one page, as an app that switches account
 * while its user types: each step in the task of the one before or a few milliseconds after it.
 * What it reaches: a message queued as its bridge is replaced, a request under way as it goes,
 * records of pages that are gone. The same steps for every engine, from a seed.
 */
import { expect } from 'vitest';

export interface InstallStep {
  /** Milliseconds to wait before it (0: in the same task as the step before). */
  wait: number;
  /** The website token to install the bridge for. */
  install?: string;
  /** A `sendMessage` command, as a host hands it to `ChatBridge.receive`. */
  send?: string;
}

/** A `sendMessage` command as text, its messageId and content both `content`. */
export const sendCommand = (id: string, content: string) =>
  JSON.stringify({ id, method: 'sendMessage', params: { content, messageId: content } });

export function interleavedSteps(seed: number, inboxes: { A: string; B: string }) {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  /** The messages queued while each inbox was installed: each is to reach that inbox once. */
  const expected: Record<'A' | 'B', string[]> = { A: [], B: [] };
  let current: 'A' | 'B' = 'A';
  const steps: InstallStep[] = [];
  for (let i = 0; i < 16; i++) {
    const wait = random() < 0.5 ? 0 : Math.floor(random() * 8);
    if (random() < 0.4) {
      current = random() < 0.5 ? 'A' : 'B';
      steps.push({ wait, install: inboxes[current] });
    } else {
      const content = `m${i}-${current}`;
      expected[current].push(content);
      steps.push({ wait, send: sendCommand(`c${i}`, content) });
    }
  }
  return { steps, expected };
}

/** An async function body that plays `steps` in the page against the backend at `baseUrl`. */
export const playStepsJs = (steps: InstallStep[], baseUrl: string) => `
  for (const step of ${JSON.stringify(steps)}) {
    if (step.wait) await new Promise((resolve) => setTimeout(resolve, step.wait));
    if (step.install) ChatBridge.install({ baseUrl: ${JSON.stringify(baseUrl)}, websiteToken: step.install });
    if (step.send) ChatBridge.receive(step.send);
  }
  return null;`;

/** A page the steps were played in: the bridge installed again for an inbox from Node. */
interface InstallingPage {
  install(options: Record<string, unknown>): Promise<unknown>;
}

/**
 * Installs each inbox in turn (B, then A) and waits until each holds exactly the messages queued
 * for it, once each; then, past another page's look for gone pages, that nothing more arrived.
 */
export async function expectEachInboxOnce(
  page: InstallingPage,
  baseUrl: string,
  inboxes: { A: string; B: string },
  expected: Record<'A' | 'B', string[]>,
  storedMessages: (websiteToken: string) => Promise<Array<{ content?: unknown }>>,
): Promise<void> {
  const contents = async (token: string) => (await storedMessages(token)).map((m) => m.content).sort();
  for (const name of ['B', 'A'] as const) {
    await page.install({ baseUrl, websiteToken: inboxes[name] });
    await expect.poll(() => contents(inboxes[name]), { timeout: 15_000 }).toEqual([...expected[name]].sort());
  }
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(await contents(inboxes.A)).toEqual([...expected.A].sort());
  expect(await contents(inboxes.B)).toEqual([...expected.B].sort());
}
