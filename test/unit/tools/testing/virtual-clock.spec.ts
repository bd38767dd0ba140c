import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../../tools/testing/virtual-clock.js';

describe('virtual clock', () => {
  it('runs nothing until time is moved past a timer, then runs it at its own time', () => {
    const clock = createVirtualClock(1000);
    const ran: number[] = [];
    clock.setTimeout(() => ran.push(clock.now()), 50);
    clock.advance(49);
    expect(ran).toEqual([]);
    clock.advance(1);
    expect(ran).toEqual([1050]);
    expect(clock.now()).toBe(1050);
  });

  it('runs timers in due order, ties in the order they were set, including ones set while advancing', () => {
    const clock = createVirtualClock();
    const ran: string[] = [];
    clock.setTimeout(() => ran.push('b@20'), 20);
    clock.setTimeout(() => {
      ran.push('a@10');
      clock.setTimeout(() => ran.push('c@15'), 5);
    }, 10);
    clock.setTimeout(() => ran.push('d@20'), 20);
    clock.advance(100);
    expect(ran).toEqual(['a@10', 'c@15', 'b@20', 'd@20']);
    expect(clock.now()).toBe(100);
    expect(clock.pending).toBe(0);
  });

  it('never runs a cleared timer, and steps one due timer at a time for the replay', () => {
    const clock = createVirtualClock();
    const ran: string[] = [];
    const cleared = clock.setTimeout(() => ran.push('cleared'), 5);
    clock.setTimeout(() => ran.push('kept'), 10);
    clock.clearTimeout(cleared);
    expect(clock.nextDue()).toBe(10);
    expect(clock.runOneDue()).toBe(false);
    clock.moveTo(10);
    clock.moveTo(3); // never back
    expect(clock.now()).toBe(10);
    expect(clock.runOneDue()).toBe(true);
    expect(ran).toEqual(['kept']);
    expect(clock.nextDue()).toBeUndefined();
  });

  it('treats a negative or non-finite delay as zero', () => {
    const clock = createVirtualClock();
    clock.setTimeout(() => {}, -5);
    clock.setTimeout(() => {}, Number.NaN);
    expect(clock.nextDue()).toBe(0);
  });
});
