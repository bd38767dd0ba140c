/**
 * The environment module's behaviour: `trackedTimers`, what a destroyed bridge leaves running (on
 * the tools' virtual clock, so "still pending" is a count, not a wait), and `apply`, a method taken
 * early called on its object. (The rest of environment.ts is the interface;
 * browser-environment.spec.ts checks how a real window fills it.)
 */
import { describe, expect, it } from 'vitest';
import { apply, trackedTimers } from '../../../bridge/environment.js';
import { createInMemoryEnvironment } from '../../../tools/testing/in-memory-environment.js';
import { createVirtualClock, withVirtualClock } from '../../../tools/testing/virtual-clock.js';

function setUp() {
  const clock = createVirtualClock(1_000);
  const env = withVirtualClock(createInMemoryEnvironment().env, clock);
  return { clock, timers: trackedTimers(env) };
}

describe('trackedTimers', () => {
  it('runs each timer once at its time, as the environment would', () => {
    const { clock, timers } = setUp();
    const ran: string[] = [];
    timers.setTimeout(() => ran.push(`late at ${clock.now()}`), 200);
    timers.setTimeout(() => ran.push(`early at ${clock.now()}`), 100);
    clock.advance(500);
    expect(ran).toEqual(['early at 1100', 'late at 1200']);
    expect(clock.pending).toBe(0);
  });

  it('clearAll clears every timer still pending, so none of them ever runs', () => {
    const { clock, timers } = setUp();
    const ran: number[] = [];
    for (const ms of [10, 20_000, 50_000]) timers.setTimeout(() => ran.push(ms), ms);
    expect(clock.pending).toBe(3);
    timers.clearAll();
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(ran).toEqual([]);
  });

  it('never runs a timer cleared one by one, and runs the timers set after a clearAll', () => {
    const { clock, timers } = setUp();
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('ran'), 10);
    const cleared = timers.setTimeout(() => ran.push('cleared'), 20);
    timers.clearTimeout(cleared);
    clock.advance(30);
    timers.clearAll();
    // Timers set after clearAll are tracked afresh and run.
    timers.setTimeout(() => ran.push('after'), 10);
    clock.advance(10);
    expect(ran).toEqual(['ran', 'after']);
  });

  it('can clear all twice, and a timer set by a running timer is tracked too', () => {
    const { clock, timers } = setUp();
    const ran: string[] = [];
    timers.setTimeout(() => timers.setTimeout(() => ran.push('second'), 100), 10);
    clock.advance(10);
    expect(clock.pending).toBe(1);
    timers.clearAll();
    timers.clearAll();
    clock.advance(1_000);
    expect(ran).toEqual([]);
  });
});

describe('apply', () => {
  it('calls a method taken before it was wrapped, with its object as `this` and the arguments given', () => {
    const target = {
      name: 'win',
      greet(this: { name: string }, greeting: string) {
        return `${greeting} ${this.name}`;
      },
    };
    const greet = target.greet;
    target.greet = () => 'wrapped';
    expect(apply(greet, target, ['hello'])).toBe('hello win');
  });
});
