import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPatch,
  diff,
  type JsonValue,
  jsonEqual,
  jsonLength,
  PatchError,
  SharedPatches,
} from '../../src/json-patch/index.js';

/** Plain JSON as a payload holds it, with keys that need escaping in a pointer. */
const key = fc.oneof(
  fc.constantFrom('a', 'b', 'seq', 'a/b', 'm~n', '', '0'),
  fc.string({ maxLength: 4 }),
);
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom('x', 'y', 'hp'),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(
      key.filter((k) => k !== '__proto__'),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

/** Any JSON text's values: escapes, every plane of Unicode, lone surrogates, any number. */
const anyJson: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    // Control characters, quotes and backslashes, and halves of surrogate pairs, paired or not.
    fc.string({
      unit: fc
        .oneof(fc.integer({ min: 0, max: 0x5f }), fc.integer({ min: 0xd7fe, max: 0xe001 }))
        .map((c) => String.fromCharCode(c)),
    }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 3 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('JSON patch', () => {
  it('measures a document as long as JSON.stringify writes it, without writing it', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        expect(jsonLength(value)).toBe(JSON.stringify(value).length);
      }),
      { numRuns: 2000 },
    );
    const holes = { a: undefined, b: [undefined, 1], c: '\u2028"\\' } as unknown as JsonValue;
    expect(jsonLength(holes)).toBe(JSON.stringify(holes).length);
  });

  it('turns any document into any other, leaving the first untouched', () => {
    fc.assert(
      fc.property(json, json, (from, to) => {
        const before = JSON.stringify(from);
        const patch = diff(from, to);
        const applied = applyPatch(from, patch);
        expect(jsonEqual(applied, to)).toBe(true);
        expect(JSON.stringify(from)).toBe(before);
        // The patch crosses the wire as JSON: read back, it does the same.
        expect(jsonEqual(applyPatch(from, JSON.parse(JSON.stringify(patch))), to)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes nothing for equal documents, and the same patch every time', () => {
    fc.assert(
      fc.property(json, json, (from, to) => {
        expect(diff(from, structuredClone(from))).toEqual([]);
        expect(JSON.stringify(diff(from, to))).toBe(JSON.stringify(diff(from, to)));
      }),
    );
  });

  it('keeps what did not change, and patches a long list by the element that changed', () => {
    const combatants = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, hp: 10 + i }));
    const from = { seq: 1, view: { combatants } };
    const to = {
      seq: 2,
      view: { combatants: combatants.map((c) => (c.id === 'c7' ? { ...c, hp: 3 } : c)) },
    };
    const patch = diff(from, to);
    expect(patch).toEqual([
      { op: 'replace', path: '/seq', value: 2 },
      { op: 'replace', path: '/view/combatants/7/hp', value: 3 },
    ]);
    const applied = applyPatch(from, patch);
    expect(applied.view.combatants[6]).toBe(from.view.combatants[6]);
    expect(applied.view.combatants[7]).not.toBe(from.view.combatants[7]);
  });

  it('removes and inserts in the middle of a list without rewriting its tail', () => {
    const from = { list: ['a', 'b', 'c', 'd', 'e'] };
    expect(diff(from, { list: ['a', 'b', 'd', 'e'] })).toEqual([{ op: 'remove', path: '/list/2' }]);
    expect(diff(from, { list: ['a', 'b', 'x', 'c', 'd', 'e'] })).toEqual([
      { op: 'add', path: '/list/2', value: 'x' },
    ]);
  });

  it('treats an undefined property as absent, as JSON does', () => {
    expect(diff({ a: 1, b: undefined }, { a: 1 })).toEqual([]);
    expect(diff({ a: 1 }, { a: 1, b: undefined })).toEqual([]);
  });

  it('refuses a patch that does not fit the document', () => {
    const doc = { list: [1, 2], o: { a: 1 } };
    for (const patch of [
      [{ op: 'remove', path: '/list/2' }],
      [{ op: 'replace', path: '/o/b', value: 1 }],
      [{ op: 'add', path: '/missing/x', value: 1 }],
      [{ op: 'add', path: '/list/3', value: 1 }],
      [{ op: 'test', path: '/o/a', value: 2 }],
      [{ op: 'add', path: '/o/__proto__', value: { polluted: true } }],
      [{ op: 'move', from: '/o', path: '/p' }],
      [{ op: 'add', path: 'o', value: 1 }],
    ]) {
      expect(() => applyPatch(doc, patch as never), JSON.stringify(patch)).toThrow(PatchError);
    }
    expect(doc).toEqual({ list: [1, 2], o: { a: 1 } });
    expect(applyPatch(doc, [{ op: 'add', path: '/list/-', value: 3 }]).list).toEqual([1, 2, 3]);
  });

  it('writes the patch of documents that share members as diff does, byte for byte', () => {
    const member = fc.dictionary(key, json, { maxKeys: 4 });
    const own = fc.dictionary(key, json, { maxKeys: 3 });
    fc.assert(
      fc.property(
        member,
        member,
        fc.array(fc.tuple(own, own), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('view', 'a/b', ''),
        (sharedBefore, sharedAfter, audiences, name) => {
          const shared = new SharedPatches();
          for (const [from, to] of audiences) {
            // Every audience holds the same two objects under the same name, as the players'
            // states hold one view.
            const before = { ...from, [name]: sharedBefore };
            const after = { ...to, [name]: sharedAfter };
            expect(JSON.stringify(diff(before, after, shared))).toBe(
              JSON.stringify(diff(before, after)),
            );
          }
        },
      ),
    );
  });

  it("works out a shared member's patch once, and tells apart members that only look alike", () => {
    const view = { hp: [1, 2, 3] };
    const next = { hp: [1, 2, 4] };
    const shared = new SharedPatches();
    const first = JSON.stringify(diff({ seq: 1, view }, { seq: 2, view: next }, shared));
    expect(first).toBe(
      '[{"op":"replace","path":"/seq","value":2},{"op":"replace","path":"/view/hp/2","value":4}]',
    );
    // The same pair again is read back: the very operations worked out the first time.
    const again = shared.operations('/view', view, next);
    expect(shared.operations('/view', view, next)).toBe(again);
    expect(JSON.stringify(again)).toBe('[{"op":"replace","path":"/view/hp/2","value":4}]');
    // An equal copy is another object: worked out for itself, with the same result.
    expect(JSON.stringify(diff({ view: structuredClone(view) }, { view: next }, shared))).toBe(
      '[{"op":"replace","path":"/view/hp/2","value":4}]',
    );
    // The same objects under another name are another member.
    expect(JSON.stringify(diff({ other: view }, { other: next }, shared))).toBe(
      '[{"op":"replace","path":"/other/hp/2","value":4}]',
    );
  });
});
