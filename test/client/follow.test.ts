import { describe, expect, it } from 'vitest';
import { follow, followingFrom, lastSeq, NOTHING_FOLLOWED } from '../../src/client/follow.js';
import type { SeenEntry, ServerMessage, StatePayload } from '../../src/server/protocol.js';

/** Just enough of an entry and a state for following: the numbers are what is checked here. */
const entry = (seq: number) => ({ seq, type: 'command', lines: [] }) as unknown as SeenEntry;
const state = (seq: number) => ({ seq, connected: [] }) as unknown as StatePayload;

function play(from: ReturnType<typeof followingFrom>, messages: readonly ServerMessage[]) {
  let followed = from;
  const hellos: number[] = [];
  for (const message of messages) {
    const next = follow(followed, message);
    followed = next.followed;
    if (next.hello !== undefined) hellos.push(next.hello);
  }
  return { followed, hellos };
}

// A hello from 5: the entries after it, the state, then a live entry patched from that state.
const AFTER_FIVE: ServerMessage[] = [
  { type: 'entries', entries: [entry(6), entry(7)] },
  { type: 'state', ...state(7) },
  {
    type: 'entry',
    entry: entry(8),
    seq: 8,
    base: 7,
    patch: [{ op: 'replace', path: '/seq', value: 8 }],
  },
];

describe('following an encounter', () => {
  it('from an entry on: the entries after it and the patches that follow fit, with no hello again', () => {
    const { followed, hellos } = play(followingFrom(5), AFTER_FIVE);
    expect(hellos).toEqual([]);
    expect(followed.entries.map((e) => e.seq)).toEqual([6, 7, 8]);
    expect(followed.state?.seq).toBe(8);
    expect(lastSeq(followed)).toBe(8);
  });

  it('from nothing, the same messages are a gap: it asks for the entries from the first', () => {
    const { hellos } = play(NOTHING_FOLLOWED, AFTER_FIVE);
    expect(hellos[0]).toBe(0);
  });

  it('starts from nothing again when the encounter was rewound', () => {
    const { followed, hellos } = play(followingFrom(5), [
      { type: 'refused', code: 'sync/ahead', message: 'rewound' },
    ]);
    expect(hellos).toEqual([0]);
    expect(lastSeq(followed)).toBe(0);
  });
});
