// @ts-check
/**
 * The "Request timeline": one row per command or message (most recent first), each request a
 * bar from its start to its answer (an upload's part of it striped), the waits between them
 * listed with their reason, offline spells shaded. Each row's time axis fits its own requests,
 * so a rate-limit storm or a retry schedule is seen, not read, however long the session.
 */
import { el } from './dom.js';
import { laneSpan, uploadPhase } from './timeline-model.js';

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
    container.replaceChildren(...lanes.map((lane) => laneRow(lane, timeline.spells(), now)));
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

/**
 * One lane's row: its name and what it is doing, then its track on its own time axis.
 * @param {import('./timeline-model.js').Lane} lane
 * @param {readonly import('./timeline-model.js').Spell[]} spells
 * @param {number} now
 */
function laneRow(lane, spells, now) {
  const { start, span, offline } = laneSpan(lane, now, spells);
  /** @param {number} t */
  const at = (t) => Math.min(100, Math.max(0, ((t - start) / span) * 100));
  /** @param {number} from @param {number} to */
  const place = (from, to) => `left:${at(from)}%;width:${Math.max(at(to) - at(from), 0)}%`;
  const track = el('div', 'track');
  for (const spell of spells) {
    if ((spell.end ?? now) > start && spell.start < start + span)
      track.append(styled(el('span', 'offline'), place(spell.start, spell.end ?? now)));
  }
  for (const wait of lane.waits) {
    const gap = styled(el('span', 'wait'), place(wait.from, wait.to));
    gap.title = wait.reason;
    track.append(gap);
  }
  for (const request of lane.requests) track.append(...requestBars(request, place, now));
  const count = `${lane.requests.length} request${lane.requests.length === 1 ? '' : 's'}`;
  const last = lane.requests.at(-1);
  const phase = offline ? 'offline, waiting for the network' : last === undefined ? undefined : uploadPhase(last);
  const waits = lane.waits.map((wait) => wait.reason).join(' · ');
  return el(
    'div',
    'lane',
    el(
      'div',
      'lane-head',
      el('span', 'lane-name', el('b', '', lane.name), ` · ${count}`, phase ? el('span', 'phase', ` · ${phase}`) : ''),
      el('span', 'lane-span', `${(span / 1000).toFixed(1)} s`),
    ),
    track,
    waits === '' ? '' : el('div', 'waits', `waited: ${waits}`),
  );
}

/**
 * A request's bar, coloured by its answer, and over it the stretch its body was uploading.
 * @param {import('./timeline-model.js').TimedRequest} request
 * @param {(from: number, to: number) => string} place
 * @param {number} now
 */
function requestBars(request, place, now) {
  const outcome = request.failed
    ? 'failed'
    : request.status === undefined
      ? 'pending'
      : `s${String(request.status)[0]}xx`;
  const answer = request.failed ? 'no answer' : (request.status ?? 'waiting');
  const bar = styled(el('span', `bar ${outcome}`), place(request.start, request.end ?? now));
  bar.title = `${request.method} ${request.path} → ${answer}`;
  const { upload } = request;
  if (upload === undefined) return [bar];
  const uploaded = upload.sentAt ?? request.end ?? now;
  const part = styled(el('span', 'upload-part'), place(request.start, uploaded));
  part.title = `${request.method} ${request.path}: body uploading (${Math.round(upload.totalBytes / 1024)} KB)`;
  return [bar, part];
}

/** Sets an element's inline geometry (computed numbers only, never received text). @param {HTMLElement} element @param {string} css */
function styled(element, css) {
  element.style.cssText = css;
  return element;
}
