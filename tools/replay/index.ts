/** The replay, for tests and tools: `replay(text, {host})` resolves with the output lines. */
export { replay, DEFAULT_FIXTURE_OPTIONS, SETTLE_LIMIT_MS } from './replay.js';
export type { ReplayOptions, DeliverLine } from './replay.js';
export { ReplayError, parseFixture } from './fixture.js';
export type { Step } from './fixture.js';
export type { RequestLine } from './scripted-http.js';
/** The replay's seeded generator, for tools that want reproducible input too (the bench). */
export { seededRandom } from '../testing/seeded-random.js';
