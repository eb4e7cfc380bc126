import { describe, expect, it } from 'vitest';
import { createSharedTurns } from '../../src/store/shared-turns.js';

/** Pieces of work that each take `ms` on a clock only they move, and the turn each ran in. */
function timedPieces(ms: number) {
  let t = 0;
  let turn = 0;
  const ran: string[] = [];
  // Another callback of the event loop, once each turn of it: it counts the turns.
  let counting = true;
  const count = () => {
    turn++;
    if (counting) setImmediate(count);
  };
  const mark = () => {
    setImmediate(count);
    return () => (counting = false);
  };
  const piece = (name: string) => () => {
    t += ms;
    ran.push(`${name}@${turn}`);
  };
  return { now: () => t, ran, piece, mark };
}

const turnsDone = (turns: { waiting: number }) =>
  new Promise<void>((resolve) => {
    const check = () => (turns.waiting === 0 ? setImmediate(resolve) : setImmediate(check));
    check();
  });

describe('createSharedTurns', () => {
  it('runs the waiting pieces in order, a turn at a time, until its budget is spent', async () => {
    const { now, ran, piece, mark } = timedPieces(3);
    const turns = createSharedTurns(5, now);
    for (const name of ['a', 'b', 'c', 'd', 'e']) turns.later(piece(name));
    const stopCounting = mark();
    await turnsDone(turns);
    stopCounting();
    // 3 ms each against a 5 ms budget: two pieces a turn, and other callbacks ran between turns.
    const turnOf = (name: string) => Number(ran.find((entry) => entry.startsWith(name))!.split('@')[1]);
    expect(ran.map((entry) => entry[0])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(turnOf('a')).toBe(turnOf('b'));
    expect(turnOf('c')).toBeGreaterThan(turnOf('b'));
    expect(turnOf('c')).toBe(turnOf('d'));
    expect(turnOf('e')).toBeGreaterThan(turnOf('d'));
  });

  it('runs one piece a turn however long it takes, and pieces that came during a turn wait for the next', async () => {
    const { now, ran, piece } = timedPieces(50);
    const turns = createSharedTurns(5, now);
    const order: string[] = [];
    turns.later(() => {
      piece('a')();
      order.push('a');
      turns.later(() => order.push('c'));
    });
    turns.later(() => order.push('b'));
    await turnsDone(turns);
    expect(ran).toHaveLength(1);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('never runs a cancelled piece, and the turns stop when none waits', async () => {
    const turns = createSharedTurns(5);
    const ran: string[] = [];
    turns.later(() => ran.push('a'));
    const cancel = turns.later(() => ran.push('b'));
    cancel();
    expect(turns.waiting).toBe(1);
    await turnsDone(turns);
    expect(ran).toEqual(['a']);
    expect(turns.waiting).toBe(0);
  });
});
