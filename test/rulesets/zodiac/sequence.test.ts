/**
 * The Combat Sequence: Speed Points, ticks and rounds, with the chapter's Keef-and-the-ogre example
 * step by step, simultaneous actions, and the Speed-changing effects.
 */
import { describe, expect, it } from 'vitest';
import {
  attack,
  begin,
  type CombatantInput,
  duel,
  hp,
  keef,
  ofType,
  ogre,
  only,
  rejected,
  run,
  sp,
  start,
  statuses,
  whoseTurn,
} from './helpers.js';

describe('Speed Points: "Keef the Thief has 20 Speed ... an ogre, who has 11 Speed"', () => {
  it('"Keef gets a 3, while the ogre gets a 1- they begin combat with 23 Speed Points and 12"', () => {
    const encounter = start();
    expect(encounter.state.phase).toBe('start');
    const events = begin(encounter, { keef: 3, ogre: 1 });
    const round = only(events, 'round-began');
    expect(round.round).toBe(1);
    expect(round.gains.map((g) => [g.id, g.speed, g.roll?.total, g.spAfter])).toEqual([
      ['keef', 20, 3, 23],
      ['ogre', 11, 1, 12],
    ]);
    expect(sp(encounter, 'keef')).toBe(23);
    expect(sp(encounter, 'ogre')).toBe(12);
    // "Keef goes first, since his Speed is higher" (he has more SP, too).
    expect(whoseTurn(encounter)).toBe('keef');
  });

  it('the whole example: two ticks of Poison, 7 and 4 SP left, then 27 and 15 in round two', () => {
    const encounter = start();
    begin(encounter);
    // "He attacks the ogre with his poisonous dagger, using 8 Speed Points. He hits, and the ogre
    // is Poisoned."
    const first = attack(encounter, 'keef', 'ogre', 50, [2]);
    expect(only(first, 'attacked').attack.hit).toBe(true);
    expect(statuses(encounter, 'ogre')).toEqual(['poison']);
    expect(sp(encounter, 'keef')).toBe(15);
    // "Then the ogre takes his turn, also burning 8 Speed Points."
    expect(whoseTurn(encounter)).toBe('ogre');
    const second = attack(encounter, 'ogre', 'keef', 10);
    // "one tick has passed, and the ogre suffers poison damage": 10% of 1000.
    const poison = ofType(second, 'damage-dealt').filter((d) => d.cause === 'Poison');
    expect(poison.map((d) => [d.target, d.amount])).toEqual([['ogre', 100]]);
    expect(only(second, 'tick-ended').tick).toBe(1);
    // "Now Keef has 15 Speed Points remaining, but the ogre only has 4."
    expect([sp(encounter, 'keef'), sp(encounter, 'ogre')]).toEqual([15, 4]);
    expect(encounter.state.tick).toBe(2);
    expect(encounter.state.queue.map((e) => e.id)).toEqual(['keef']);
    // "Keef takes another turn ... another tick passes, and the ogre again takes damage"
    const third = attack(encounter, 'keef', 'ogre', 5, [1]);
    expect(ofType(third, 'damage-dealt').filter((d) => d.cause === 'Poison')).toHaveLength(1);
    // "Keef now only has 7 Speed Points, and the ogre has 4 ... so the round ends. On the next
    // round, Keef gains 20 more Speed Points, bringing him up to 27 ... a total of 15"
    const ended = only(third, 'round-ended');
    expect(ended.round).toBe(1);
    const next = only(third, 'round-began');
    expect(next.gains.map((g) => [g.id, g.roll, g.spAfter])).toEqual([
      ['keef', null, 27],
      ['ogre', null, 15],
    ]);
    // (2 x 10) + 30 and (1 x 10) + 30 from the dagger, 100 twice from Poison.
    expect(hp(encounter, 'ogre')).toBe(1000 - 50 - 100 - 40 - 100);
    // "enough for three attacks this round ... not quite enough to attack twice this round"
    const turns: string[] = [];
    for (let i = 0; i < 4; i++) {
      const actor = whoseTurn(encounter)!;
      turns.push(actor);
      attack(encounter, actor, actor === 'keef' ? 'ogre' : 'keef', 5);
    }
    expect(turns).toEqual(['keef', 'ogre', 'keef', 'keef']);
    expect(encounter.state.round).toBe(3);
  });

  it('an action costs 8 SP: nobody below 8 gets a turn, and the leftover carries over', () => {
    const encounter = start(duel([keef({ stats: { ...keef().stats, speed: 7 } })]));
    begin(encounter, { keef: 1, ogre: 1 });
    // Keef 8, ogre 12: the ogre first (more SP), then Keef.
    expect(encounter.state.queue.map((e) => [e.id, e.sp])).toEqual([
      ['ogre', 12],
      ['keef', 8],
    ]);
  });

  it('"If two combatants have the same amount of SP, the one with the highest Speed stat goes first"', () => {
    const encounter = start(duel([keef({ stats: { ...keef().stats, speed: 10 } })]));
    begin(encounter, { keef: 3, ogre: 2 });
    expect(encounter.state.queue.map((e) => [e.id, e.sp, e.group])).toEqual([
      ['ogre', 13, 0],
      ['keef', 13, 1],
    ]);
  });

  it('nobody acts out of turn; the battle must begin first', () => {
    const encounter = start();
    rejected(encounter, { type: 'attack', actor: 'keef', target: 'ogre' }, 'battle/not-begun');
    begin(encounter);
    rejected(encounter, { type: 'attack', actor: 'ogre', target: 'keef' }, 'action/not-your-turn');
    rejected(encounter, { type: 'begin-battle' }, 'battle/begun');
    rejected(
      encounter,
      { type: 'attack', actor: 'keef', target: 'nobody' },
      'action/unknown-target',
    );
  });
});

describe('simultaneous actions: "a character can kill a monster and be knocked unconscious by that monster"', () => {
  const twins = () =>
    duel([keef({ stats: { ...keef().stats, speed: 11 }, hp: 100 })], [ogre({ hp: 40 })]);

  it('equal SP and equal Speed: one group, both act, and both fall: a draw', () => {
    const encounter = start(twins());
    begin(encounter, { keef: 1, ogre: 1 });
    expect(encounter.state.queue.map((e) => e.group)).toEqual([0, 0]);
    expect(encounter.state.committed).toEqual(['keef', 'ogre']);
    const first = attack(encounter, 'keef', 'ogre', 50, [4]);
    expect(only(first, 'knocked-out').target).toBe('ogre');
    // The ogre is down, yet its simultaneous action still comes and takes effect.
    expect(encounter.state.phase).toBe('ticks');
    expect(whoseTurn(encounter)).toBe('ogre');
    const second = attack(encounter, 'ogre', 'keef', 50, [10]);
    expect(only(second, 'knocked-out').target).toBe('keef');
    expect(encounter.outcome()).toEqual({
      over: true,
      winner: null,
      reason: 'nobody is left standing',
    });
  });

  it('without a tie in Speed there is no simultaneity: the ogre, knocked out first, never swings', () => {
    const encounter = start(
      duel([keef({ stats: { ...keef().stats, speed: 12 }, hp: 100 })], [ogre({ hp: 40 })]),
    );
    begin(encounter, { keef: 1, ogre: 2 });
    attack(encounter, 'keef', 'ogre', 50, [4]);
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });
});

describe('Speed effects', () => {
  it('Haste: "Your Speed is increased by 50%. This does not affect your current Speed Points."', () => {
    const encounter = start(duel([keef({ techs: ['haste'] })]));
    begin(encounter);
    run(encounter, { type: 'tech', actor: 'keef', tech: 'haste', target: 'keef' });
    expect(sp(encounter, 'keef')).toBe(15);
    const view = encounter.state.combatants.keef!;
    expect(statuses(encounter, 'keef')).toEqual(['haste']);
    expect(view.sp).toBe(15);
    // Next round: + 30 instead of + 20.
    run(encounter, { type: 'defend', actor: 'ogre' });
    run(encounter, { type: 'defend', actor: 'keef' });
    expect(encounter.state.round).toBe(2);
    expect(sp(encounter, 'keef')).toBe(7 + 30);
  });

  it('Slow halves Speed (rounded down); Haste on a Slowed target undoes the Slow', () => {
    const encounter = start(duel([keef({ techs: ['slow', 'haste'] })]));
    begin(encounter);
    run(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'slow', target: 'ogre' },
      { 'status:ogre': [60] },
    );
    expect(statuses(encounter, 'ogre')).toEqual(['slow']);
    run(encounter, { type: 'defend', actor: 'ogre' });
    run(encounter, { type: 'defend', actor: 'keef' });
    // The ogre had 4 SP left: + floor(11 / 2) = 9.
    expect(sp(encounter, 'ogre')).toBe(4 + 5);
    run(encounter, { type: 'tech', actor: 'keef', tech: 'haste', target: 'ogre' });
    expect(statuses(encounter, 'ogre')).toEqual([]);
  });

  it('Stop: Speed 0, no turns at all, and the SP it had are kept', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'stop', timer: 3 });
    run(encounter, { type: 'defend', actor: 'keef' });
    // The ogre's turn is skipped without spending: still 12 SP.
    expect(sp(encounter, 'ogre')).toBe(12);
    expect(whoseTurn(encounter)).toBe('keef');
  });

  it('Stun: "During your next turn ONLY, you lose 8 Speed Points and can take no action"', () => {
    const encounter = start(duel([keef()], [ogre()], { defendLasts: 'until-next-turn' }));
    begin(encounter);
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'stun' });
    const events = run(encounter, { type: 'defend', actor: 'keef' });
    const lost = only(events, 'turn-lost');
    expect(lost).toMatchObject({ actor: 'ogre', reason: 'stunned', spAfter: 4 });
    expect(statuses(encounter, 'ogre')).toEqual([]);
  });

  it('a round where nobody can act still passes a tick, so timed effects run out', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'stop', timer: 5 });
    run(encounter, { type: 'gm-status', target: 'keef', status: 'stop', timer: 5 });
    // Keef's own turn ends with him Stopped; rounds pass until Stop wears off.
    run(encounter, { type: 'defend', actor: 'keef' });
    expect(statuses(encounter, 'keef')).toEqual([]);
    expect(statuses(encounter, 'ogre')).toEqual([]);
    expect(encounter.state.round).toBeGreaterThan(1);
  });
});

describe('nobody gains Speed Points: Speed 0 all round', () => {
  it('ends at once as a draw when a round changes nothing, rather than looping rounds until the cap', () => {
    const still = (c: CombatantInput) => ({ ...c, stats: { ...c.stats, speed: 0 } });
    const encounter = start(duel([still(keef())], [still(ogre())]));
    // Round 1's 1d8 leaves both below the 8 SP a turn needs, and no round adds any.
    const events = begin(encounter, { keef: 3, ogre: 1 });
    expect(only(events, 'battle-ended')).toMatchObject({
      winner: null,
      reason: 'nobody can act any more',
    });
    // A round or two, not a hundred thousand steps' worth (an entry the server could not keep).
    expect(ofType(events, 'round-began').length).toBeLessThanOrEqual(3);
  });
});
