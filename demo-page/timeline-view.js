// @ts-check
/**
 * The "Request timeline": one row per command or message (most recent first), each request a
 * bar from its start to its answer, the waits between them listed with their reason, offline
 * spells shaded across every row. A rate-limit storm or a retry schedule is seen, not read.
 */
import { el } from './dom.js';

/** Rows drawn: the most recently active lanes. */
const MAX_LANES = 6;
/** How often the drawing follows the clock while a request or an offline spell is open. */
const LIVE_MS = 250;

/**
 * @param {HTMLElement} container
 * @param {import('./timeline-model.js').Timeline} timeline
 */
export function createTimelineView(container, timeline) {
  let scheduled = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let ticker;

  function draw() {
    scheduled = false;
    clearTimeout(ticker);
    const lanes = timeline.lanes().slice(0, MAX_LANES);
    if (lanes.length === 0) {
      container.replaceChildren(el('p', 'hint', 'No requests yet: send a command.'));
      return;
    }
    const now = Date.now();
    const start = Math.min(...lanes.map((lane) => lane.requests[0]?.start ?? now));
    const span = Math.max(now - start, 1000);
    /** @param {number} t */
    const at = (t) => Math.min(100, Math.max(0, ((t - start) / span) * 100));
    /** @param {number} from @param {number} to */
    const place = (from, to) => `left:${at(from)}%;width:${Math.max(at(to) - at(from), 0)}%`;
    const spells = timeline.spells().filter((spell) => (spell.end ?? now) > start);

    container.replaceChildren(
      el('div', 'axis', el('span', '', '0 s'), el('span', '', `${(span / 1000).toFixed(1)} s`)),
      ...lanes.map((lane) => {
        const track = el('div', 'track');
        for (const spell of spells) track.append(styled(el('span', 'offline'), place(spell.start, spell.end ?? now)));
        for (const wait of lane.waits) {
          const gap = styled(el('span', 'wait'), place(wait.from, wait.to));
          gap.title = wait.reason;
          track.append(gap);
        }
        for (const request of lane.requests) {
          const outcome = request.failed
            ? 'failed'
            : request.status === undefined
              ? 'pending'
              : `s${String(request.status)[0]}xx`;
          const answer = request.failed ? 'no answer' : (request.status ?? 'waiting');
          const bar = el('span', `bar ${outcome}`);
          bar.title = `${request.method} ${request.path} → ${answer}`;
          track.append(styled(bar, place(request.start, request.end ?? now)));
        }
        const count = `${lane.requests.length} request${lane.requests.length === 1 ? '' : 's'}`;
        const waits = lane.waits.map((wait) => wait.reason).join(' · ');
        return el(
          'div',
          'lane',
          el('div', 'lane-name', el('b', '', lane.name), ` · ${count}`),
          track,
          waits === '' ? '' : el('div', 'waits', `waited: ${waits}`),
        );
      }),
    );
    if (timeline.live()) ticker = setTimeout(draw, LIVE_MS);
  }

  return {
    /** Redraws at the next frame, however many changes come before it. */
    changed() {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(draw);
    },
    clear() {
      timeline.clear();
      draw();
    },
  };
}

/** Sets an element's inline geometry (computed numbers only, never received text). @param {HTMLElement} element @param {string} css */
function styled(element, css) {
  element.style.cssText = css;
  return element;
}
