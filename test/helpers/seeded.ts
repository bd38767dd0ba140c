/**
 * A seeded generator, so a failing run of a randomized test can be played again: the replay's
 * own (tools/testing/seeded-random.ts), not a second copy of it.
 */
export { seededRandom as seeded } from '../../tools/testing/seeded-random.js';
