import { describe, expect, it } from 'vitest';
import { Encounter } from '../../../src/engine/index.js';
import { type FfrpgEvent, ffrpg } from '../../../src/rulesets/ffrpg/index.js';
import { windCave } from './fixtures.js';

/** "Scenes in Action": the party runs from the collapsing chamber; no enemies, a fixed event. */
function collapsingChamber() {
  const setup = windCave();
  const created = Encounter.create(
    ffrpg,
    {
      ...setup,
      mode: 'scene',
      sides: [setup.sides[0]!],
      events: [{ id: 'ceiling', name: 'The ceiling comes down', initiative: 10 }],
    },
    'scene',
  );
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

function ok<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('Scenes', () => {
  it('"M: 12. Blair: 11. Rob: 7. Ceiling comes down at 10": Haze, Mint, the ceiling, then Hiro', () => {
    const scene = collapsingChamber();
    // d10 + SPD, entered as the totals the players call out: Haze 4 + 8, Mint 3 + 8, Hiro 2 + 5.
    const events = ok(
      scene.submit(
        { type: 'begin-round' },
        {
          entered: {
            'initiative:haze': { total: 12 },
            'initiative:mint': { total: 11 },
            'initiative:hiro': { total: 7 },
          },
        },
      ),
    );
    const began = events[0] as Extract<FfrpgEvent, { type: 'round-began' }>;
    expect(began.timeline.map((e) => `${e.id} ${e.count}`)).toEqual([
      'haze 12',
      'mint 11',
      'ceiling 10',
      'hiro 7',
    ]);
    expect(scene.legalActions().map((a) => a.label)).toContain('Task Check: STR');
    // "Haze is going to grab Hiro and pull him out of the way before the whole ceiling comes down."
    const grab = ok(
      scene.submit(
        {
          type: 'task-check',
          actor: 'haze',
          attribute: 'STR',
          modifier: 'average',
          task: 'grab Hiro',
        },
        { entered: { check: [3, 0] } },
      ),
    );
    expect(grab[0]).toMatchObject({
      type: 'task-checked',
      task: 'grab Hiro',
      rating: { name: 'STR Rating', value: 34 },
      modifier: 20,
      check: { cos: 54, success: true, formula: 'STR Rating 34 + 20' },
    });
    const mint = ok(scene.submit({ type: 'pass', actor: 'mint' }));
    expect(mint.map((e) => e.type)).toEqual(['turn-ended', 'fixed-event', 'turn-began']);
    expect(mint[1]).toMatchObject({ name: 'The ceiling comes down' });
    expect(mint[2]).toMatchObject({ actor: 'hiro' });
    ok(scene.submit({ type: 'pass', actor: 'hiro' }));
    // A Scene does not end because nobody opposes the party: the GM ends it.
    expect(scene.outcome()).toEqual({ over: false });
    expect(scene.state.phase).toBe('initiative');
    ok(scene.submit({ type: 'end-scene' }));
    expect(scene.outcome()).toEqual({ over: true, winner: null, reason: 'the Scene ended' });
    expect(scene.submit({ type: 'begin-round' })).toMatchObject({
      ok: false,
      error: { code: 'battle/over' },
    });
  });

  it('"Hiro has Awareness at a Rating of 50 ... elementary ... a modified CoS of 130, a Task Check will not be required"', () => {
    const scene = collapsingChamber();
    ok(
      scene.submit(
        { type: 'begin-round' },
        {
          entered: {
            'initiative:haze': { total: 9 },
            'initiative:mint': { total: 9 },
            'initiative:hiro': { total: 15 },
          },
        },
      ),
    );
    const events = ok(
      scene.submit({
        type: 'task-check',
        actor: 'hiro',
        skill: 'Awareness',
        modifier: 'elementary',
      }),
    );
    expect(events[0]).toMatchObject({
      check: { cos: 130, automatic: true, roll: null, success: true },
    });
  });

  it('rejects Task Checks naming nothing, an unknown skill or a bad modifier, and end-scene in a battle', () => {
    const scene = collapsingChamber();
    ok(
      scene.submit(
        { type: 'begin-round' },
        {
          entered: {
            'initiative:haze': { total: 17 },
            'initiative:mint': { total: 9 },
            'initiative:hiro': { total: 7 },
          },
        },
      ),
    );
    const codes = [
      scene.submit({ type: 'task-check', actor: 'haze', modifier: 0 }),
      scene.submit({ type: 'task-check', actor: 'haze', skill: 'Cooking' }),
      scene.submit({ type: 'task-check', actor: 'haze', skill: 'Stealth', modifier: 'trivial' }),
    ].map((r) => (r.ok ? 'ok' : r.error.code));
    expect(codes).toEqual(['action/bad-check', 'action/unknown-skill', 'action/bad-check']);
    const battle = ok(Encounter.create(ffrpg, windCave(), 1));
    expect(battle.submit({ type: 'end-scene' })).toMatchObject({
      ok: false,
      error: { code: 'battle/not-a-scene' },
    });
    const lonely = Encounter.create(ffrpg, { ...windCave(), sides: [windCave().sides[0]!] }, 1);
    expect(lonely).toMatchObject({ ok: false, error: { code: 'setup/invalid' } });
  });
});

describe('Task Checks outside a countdown', () => {
  it('"Haze and Mint both have Attribute Ratings of 34 in Speed; Hiro\'s is 25 ... +40 ... 40, 62, 29: all three rolls are underneath"', () => {
    const scene = collapsingChamber();
    const rolls: [string, number[], number][] = [
      ['mint', [4, 0], 74],
      ['hiro', [6, 2], 65],
      ['haze', [2, 9], 74],
    ];
    for (const [actor, roll, cos] of rolls) {
      const events = ok(
        scene.submit(
          { type: 'task-check', actor, attribute: 'SPD', modifier: 'easy' },
          { entered: { check: roll } },
        ),
      );
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'task-checked', check: { cos, success: true } });
    }
    expect(scene.state.round).toBe(0);
  });

  it('an impossible task is not saved by the Rule of 10', () => {
    const scene = collapsingChamber();
    const events = ok(
      scene.submit(
        {
          type: 'task-check',
          actor: 'haze',
          attribute: 'STR',
          modifier: -80,
          impossible: true,
          task: 'throw the castle',
        },
        { entered: { check: [0, 5] } },
      ),
    );
    expect(events[0]).toMatchObject({ check: { cos: -46, success: false, ruleOf10: false } });
  });

  it('ending a Scene mid-round still has its Status Phase: Timers count down', () => {
    const scene = collapsingChamber();
    ok(scene.submit({ type: 'gm-status', target: 'hiro', status: 'poison', timer: 3 }));
    ok(
      scene.submit(
        { type: 'begin-round' },
        {
          entered: {
            'initiative:haze': { total: 12 },
            'initiative:mint': { total: 11 },
            'initiative:hiro': { total: 7 },
          },
        },
      ),
    );
    const ended = ok(scene.submit({ type: 'end-scene' }));
    expect(ended.map((e) => e.type)).toEqual([
      'damage-dealt',
      'status-timers-counted',
      'round-ended',
      'scene-ended',
    ]);
    expect(scene.state.combatants.hiro?.statuses).toEqual([{ status: 'poison', timer: 2 }]);
  });
});

describe('options', () => {
  it("ruleOf10Reading 'floors-the-cos': below CoS 10 no success is critical (the glossary's reading)", () => {
    const roll = (reading: 'saves-the-roll' | 'floors-the-cos') => {
      const setup = windCave({ options: { ruleOf10Reading: reading } });
      const scene = ok(
        Encounter.create(ffrpg, { ...setup, mode: 'scene', sides: [setup.sides[0]!] }, 1),
      );
      return ok(
        scene.submit(
          { type: 'task-check', actor: 'hiro', skill: 'Stealth', modifier: -15 },
          { entered: { check: [0, 3] } },
        ),
      )[0];
    };
    expect(roll('saves-the-roll')).toMatchObject({
      check: { cos: 5, success: true, critical: true, ruleOf10: false },
    });
    expect(roll('floors-the-cos')).toMatchObject({
      check: { cos: 5, success: true, critical: false, ruleOf10: true },
    });
  });

  it('Poison is held to the Damage Cap: "would still only remove 999 HP"', () => {
    const setup = windCave();
    const heket = setup.sides[1]!.combatants[0]!;
    const big = {
      ...setup,
      sides: [
        setup.sides[0]!,
        { ...setup.sides[1]!, combatants: [{ ...heket, stats: { ...heket.stats, hp: 50_000 } }] },
      ],
    };
    const battle = ok(Encounter.create(ffrpg, big, 1));
    ok(battle.submit({ type: 'gm-status', target: 'heket', status: 'poison' }));
    ok(battle.submit({ type: 'begin-round' }));
    let events: readonly FfrpgEvent[] = [];
    for (let i = 0; i < 10 && battle.state.round === 1; i++) {
      const actor = battle.legalActions().find((a) => a.command.type === 'pass');
      if (actor === undefined) break;
      events = ok(battle.submit(actor.command));
    }
    const poison = events.find((e) => e.type === 'damage-dealt' && e.target === 'heket');
    expect(poison).toMatchObject({ amount: 999, hpAfter: 50_000 - 999 });
  });
});

describe('Opposed Task Checks in a Scene', () => {
  /** The sleeping Heket's cavern: the party against the monster, no fight yet. */
  function cavern() {
    const setup = windCave();
    const heket = setup.sides[1]!.combatants[0]!;
    return ok(
      Encounter.create(
        ffrpg,
        {
          ...setup,
          mode: 'scene',
          sides: [
            setup.sides[0]!,
            { ...setup.sides[1]!, combatants: [{ ...heket, skills: { Awareness: 40 } }] },
          ],
        },
        'cavern',
      ),
    );
  }
  const sneak = (who: string) => ({
    type: 'opposed-check',
    task: 'sneak past the Heket',
    participants: [
      { actor: who, skill: 'Stealth', modifier: 40 },
      { actor: 'heket', skill: 'Awareness', modifier: -20 },
    ],
  });

  it('"M and Blair roll under their CoSes by 30 and 68 respectively, while Rob fails his roll": Haze and Mint win, Hiro is a stalemate', () => {
    const scene = cavern();
    const haze = ok(
      scene.submit(sneak('haze'), { entered: { 'opposed:haze': [5, 0], 'opposed:heket': [3, 2] } }),
    );
    expect(haze[0]).toMatchObject({
      type: 'opposed-checked',
      outcome: { result: 'winner', winner: 'haze' },
    });
    const mint = ok(
      scene.submit(sneak('mint'), { entered: { 'opposed:mint': [1, 2], 'opposed:heket': [3, 2] } }),
    );
    expect(mint[0]).toMatchObject({ outcome: { result: 'winner', winner: 'mint' } });
    const hiro = ok(
      scene.submit(sneak('hiro'), { entered: { 'opposed:hiro': [6, 1], 'opposed:heket': [3, 2] } }),
    );
    expect(hiro[0]).toMatchObject({ outcome: { result: 'stalemate', reason: 'all-failed' } });
    // "Rob: (rolling) 38. Rodger rolls in secret again, coming up with a 40—another failure."
    const retry = ok(
      scene.submit(sneak('hiro'), { entered: { 'opposed:hiro': [3, 8], 'opposed:heket': [4, 0] } }),
    );
    expect(retry[0]).toMatchObject({ outcome: { result: 'winner', winner: 'hiro' } });
    const checked = retry[0] as Extract<FfrpgEvent, { type: 'opposed-checked' }>;
    expect(checked.participants.map((p) => p.check.cos)).toEqual([60, 20]);
  });

  it("is refused with a participant twice; during a countdown it is made at once and takes nobody's turn", () => {
    const scene = cavern();
    expect(
      scene.submit({
        ...sneak('haze'),
        participants: [sneak('haze').participants[0]!, sneak('haze').participants[0]!],
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'action/bad-check' },
    });
    ok(scene.submit({ type: 'begin-round' }));
    const cursor = scene.state.cursor;
    const events = ok(scene.submit(sneak('haze')));
    expect(events.map((e) => e.type)).toEqual(['opposed-checked']);
    expect(scene.state.cursor).toBe(cursor);
  });
});
