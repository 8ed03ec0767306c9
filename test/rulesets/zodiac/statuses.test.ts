/** Status effects, Potions, Defend, dying and the end of the battle. */
import { describe, expect, it } from 'vitest';
import { zodiac } from '../../../src/rulesets/zodiac/index.js';
import {
  attack,
  begin,
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

const inflict = (
  encounter: ReturnType<typeof start>,
  target: string,
  status: string,
  ticks?: number,
) =>
  run(encounter, {
    type: 'gm-status',
    target,
    status,
    ...(ticks === undefined ? {} : { timer: ticks }),
  });

const labels = (encounter: ReturnType<typeof start>) =>
  zodiac.legalActions(encounter.state).map((a) => a.label);

/** Keef with a plain dagger, so his hits carry no Poison. */
const plainKeef = (changes = {}) =>
  keef({ weapon: { name: 'Dagger', die: 4, attackPower: 10 }, ...changes });

describe('Poison, Venom and Regen', () => {
  it('Poison: "you lose 10% of your max HP at the end of each tick", and Defend does not halve it', () => {
    const encounter = start(duel([plainKeef()], [ogre()], { defendLasts: 'until-next-turn' }));
    begin(encounter);
    inflict(encounter, 'keef', 'poison', 2);
    run(encounter, { type: 'defend', actor: 'keef' });
    const events = run(encounter, { type: 'defend', actor: 'ogre' });
    expect(only(events, 'damage-dealt')).toMatchObject({
      target: 'keef',
      amount: 40,
      cause: 'Poison',
    });
    // Two ticks, then it wears off.
    const next = run(encounter, { type: 'defend', actor: 'keef' });
    expect(ofType(next, 'damage-dealt').map((d) => d.amount)).toEqual([40]);
    expect(statuses(encounter, 'keef')).toEqual([]);
    expect(hp(encounter, 'keef')).toBe(320);
  });

  it("Venom: 20% of HP and 10% of MP at the end of each of the victim's turns (rulings)", () => {
    const encounter = start(duel([plainKeef()], [ogre()], { defendLasts: 'until-next-turn' }));
    begin(encounter);
    inflict(encounter, 'keef', 'venom');
    const events = run(encounter, { type: 'defend', actor: 'keef' });
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 80, cause: 'Venom' });
    expect(only(events, 'mp-changed')).toMatchObject({ amount: -4, mpAfter: 36 });
    run(encounter, { type: 'defend', actor: 'ogre' });
    const again = run(encounter, { type: 'defend', actor: 'keef' });
    expect(ofType(again, 'damage-dealt').map((d) => d.cause)).toEqual(['Venom']);
    expect(hp(encounter, 'keef')).toBe(240);
  });

  it('Venom, venomTiming once-per-round: only the first turn of each round', () => {
    const encounter = start(
      duel([plainKeef()], [ogre()], {
        venomTiming: 'once-per-round',
        defendLasts: 'until-next-turn',
      }),
    );
    begin(encounter);
    inflict(encounter, 'keef', 'venom');
    run(encounter, { type: 'defend', actor: 'keef' });
    run(encounter, { type: 'defend', actor: 'ogre' });
    const again = run(encounter, { type: 'defend', actor: 'keef' });
    // Keef's second turn of round 1: no Venom.
    expect(
      ofType(again, 'damage-dealt').filter((d) => d.cause === 'Venom' && d.target === 'keef'),
    ).toHaveLength(0);
    expect(hp(encounter, 'keef')).toBe(320);
  });

  it('Regen: "You regenerate 10% of your maximum HP per tick"; Zombie reverses it', () => {
    const encounter = start(
      duel([plainKeef({ hp: 100 })], [ogre()], { defendLasts: 'until-next-turn' }),
    );
    begin(encounter);
    inflict(encounter, 'keef', 'regen');
    run(encounter, { type: 'defend', actor: 'keef' });
    const events = run(encounter, { type: 'defend', actor: 'ogre' });
    expect(only(events, 'healed')).toMatchObject({ target: 'keef', amount: 40, hpAfter: 140 });
    inflict(encounter, 'keef', 'zombie');
    const reversed = run(encounter, { type: 'defend', actor: 'keef' });
    // Reversed, the 40 is damage like any other, and Keef is defending: "all damage dealt to
    // you, regardless of their source, is reduced by half".
    expect(only(reversed, 'damage-dealt')).toMatchObject({
      target: 'keef',
      amount: 20,
      cause: 'Regen',
    });
  });
});

describe('negative effects on actions', () => {
  it('Blind: "a penalty of -30 to your attack rolls"', () => {
    const encounter = start(duel([plainKeef()]));
    begin(encounter);
    inflict(encounter, 'keef', 'blind');
    const events = attack(encounter, 'keef', 'ogre', 20);
    expect(only(events, 'attacked').attack).toMatchObject({ total: 30, hit: false });
  });

  it('Sleep: no action; "physical attacks automatically hit, dealing the maximum possible damage, but also waking you up"', () => {
    const encounter = start(duel([plainKeef()], [ogre()], { defendLasts: 'until-next-turn' }));
    begin(encounter);
    inflict(encounter, 'ogre', 'sleep', 5);
    run(encounter, { type: 'defend', actor: 'keef' });
    // The ogre's turn is lost, costing its SP.
    expect(sp(encounter, 'ogre')).toBe(4);
    const events = run(encounter, { type: 'attack', actor: 'keef', target: 'ogre' });
    expect(only(events, 'attacked').attack).toMatchObject({ roll: null, hit: true });
    expect(only(events, 'damage-dealt').amount).toBe(4 * 10 + 30);
    expect(statuses(encounter, 'ogre')).toEqual([]);
  });

  it('Curse: "treat them as if they had all come up as 1\'s"', () => {
    const encounter = start(duel([plainKeef()]));
    begin(encounter);
    inflict(encounter, 'keef', 'curse');
    const events = run(
      encounter,
      { type: 'attack', actor: 'keef', target: 'ogre' },
      { 'hit:ogre': [50] },
    );
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 40, roll: null });
  });

  it('Frog: no Techs, all damage dealt divided by ten', () => {
    const encounter = start(duel([plainKeef({ techs: ['fire'] })]));
    begin(encounter);
    inflict(encounter, 'keef', 'frog');
    rejected(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'fire', target: 'ogre' },
      'action/frog',
    );
    expect(labels(encounter).some((l) => l.startsWith('Cast Fire'))).toBe(false);
    const events = attack(encounter, 'keef', 'ogre', 50, [4]);
    expect(only(events, 'damage-dealt').amount).toBe(7);
  });

  it('Mini: weapon damage dealt divided by ten; damage taken up by 50%', () => {
    const encounter = start(duel([plainKeef()]));
    begin(encounter);
    inflict(encounter, 'keef', 'mini');
    expect(only(attack(encounter, 'keef', 'ogre', 50, [4]), 'damage-dealt').amount).toBe(7);
    const taken = attack(encounter, 'ogre', 'keef', 50, [1]);
    expect(ofType(taken, 'damage-dealt')[0]!.amount).toBe(90);
  });

  it('Seal: "You cannot use Techs"', () => {
    const encounter = start(duel([plainKeef({ techs: ['fire'] })]));
    begin(encounter);
    inflict(encounter, 'keef', 'seal');
    rejected(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'fire', target: 'ogre' },
      'action/sealed',
    );
  });

  it('Berserk: "can do nothing on your turn but attack the nearest enemy"', () => {
    const encounter = start(duel([plainKeef()]));
    begin(encounter);
    inflict(encounter, 'keef', 'berserk', 3);
    rejected(encounter, { type: 'defend', actor: 'keef' }, 'action/berserk');
    expect(labels(encounter)).toEqual(['Attack Ogre with Dagger']);
  });

  it('Berserk and Charmed with no friend standing to attack: Defend, not a stuck battle', () => {
    const encounter = start(duel([plainKeef()]));
    begin(encounter);
    inflict(encounter, 'keef', 'berserk', 3);
    inflict(encounter, 'keef', 'charm', 3);
    // Charm turns Keef on his own side, where nobody else stands.
    expect(labels(encounter)).toEqual(['Berserk, with nobody to attack: Defend']);
    run(encounter, { type: 'defend', actor: 'keef' });
    expect(whoseTurn(encounter)).not.toBe('keef');
  });

  it('Charm and Confusion: the GM chooses, labelled so; both end on damage', () => {
    const encounter = start(duel([plainKeef(), plainKeef({ id: 'kid', name: 'Kid' })]));
    begin(encounter, { keef: 3, kid: 1, ogre: 1 });
    inflict(encounter, 'keef', 'charm', 3);
    expect(labels(encounter)).toContain('Charmed (the GM chooses): Attack Kid with Dagger');
    expect(labels(encounter).some((l) => l.includes('Attack Ogre'))).toBe(false);
    // Charmed, Keef may strike his friend.
    attack(encounter, 'keef', 'kid', 50, [1]);
    inflict(encounter, 'kid', 'confusion', 3);
    expect(labels(encounter)).toContain('Confused (the GM chooses): Attack Keef with Dagger');
    expect(labels(encounter)).toContain('Confused (the GM chooses): Attack Ogre with Dagger');
    run(encounter, { type: 'defend', actor: 'kid' });
    const hit = attack(encounter, 'ogre', 'keef', 50, [1]);
    expect(only(hit, 'status-ended')).toMatchObject({
      target: 'keef',
      status: 'charm',
      reason: 'damage',
    });
  });

  it('Stone: no action, no harm, immune to negative effects; a side of statues is beaten', () => {
    const encounter = start(
      duel([plainKeef({ techs: ['sleep'] })], [ogre(), ogre({ id: 'ogre-2', name: 'Ogre 2' })]),
    );
    begin(encounter, { keef: 3, ogre: 1, 'ogre-2': 1 });
    inflict(encounter, 'ogre', 'stone');
    const events = attack(encounter, 'keef', 'ogre', 50, [4]);
    expect(only(events, 'damage-dealt').amount).toBe(0);
    // The statue loses its turn; Ogre 2 acts.
    expect(whoseTurn(encounter)).toBe('ogre-2');
    run(encounter, { type: 'defend', actor: 'ogre-2' });
    const sleep = run(encounter, { type: 'tech', actor: 'keef', tech: 'sleep', target: 'ogre' });
    expect(only(sleep, 'status-resisted')).toMatchObject({ status: 'sleep', reason: 'a statue' });
    expect(encounter.outcome().over).toBe(false);
    inflict(encounter, 'ogre-2', 'stone');
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });

  it('Death Sentence: "until the end of the next combat round ... your HP will immediately drop to zero"', () => {
    const encounter = start(duel([plainKeef()]));
    begin(encounter);
    inflict(encounter, 'keef', 'death-sentence');
    expect(encounter.state.combatants.keef!.statuses[0]).toMatchObject({ untilRound: 2 });
    let guard = 0;
    while (encounter.state.round < 3 && !encounter.outcome().over && guard++ < 20)
      run(encounter, { type: 'defend', actor: whoseTurn(encounter)! });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'monsters' });
    expect(hp(encounter, 'keef')).toBe(0);
  });

  it("Defend halves an attack's damage until the defender's next turn", () => {
    const encounter = start(duel([plainKeef()]));
    begin(encounter);
    run(encounter, { type: 'defend', actor: 'keef' });
    expect(only(attack(encounter, 'ogre', 'keef', 50, [2]), 'damage-dealt').amount).toBe(35);
    expect(encounter.state.combatants.keef!.defending).toBe(false);
  });

  it("defendLasts rest-of-round: the defender's remaining turns this round pass defending", () => {
    const encounter = start(duel([plainKeef()], [ogre()], { defendLasts: 'rest-of-round' }));
    begin(encounter);
    run(encounter, { type: 'defend', actor: 'keef' });
    const events = run(encounter, { type: 'defend', actor: 'ogre' });
    expect(only(events, 'turn-lost')).toMatchObject({
      actor: 'keef',
      reason: 'defending',
      spAfter: 7,
    });
    expect(encounter.state.round).toBe(2);
    expect(encounter.state.combatants.keef!.defending).toBe(false);
  });
});

describe('Potions, dying and reviving', () => {
  it('Potions: on any target, at once, and gone after one use', () => {
    const encounter = start(duel([plainKeef({ hp: 100, items: { potion: 1 } })]));
    begin(encounter);
    const events = run(encounter, { type: 'item', actor: 'keef', item: 'potion', target: 'keef' });
    expect(only(events, 'healed')).toMatchObject({ amount: 100, hpAfter: 200 });
    expect(encounter.state.combatants.keef!.items.potion).toBe(0);
    run(encounter, { type: 'defend', actor: 'ogre' });
    rejected(
      encounter,
      { type: 'item', actor: 'keef', item: 'potion', target: 'keef' },
      'action/no-item',
    );
  });

  it('Potions "on any target": offered on the enemy too, after the expected targets', () => {
    const encounter = start(duel([plainKeef({ hp: 100, items: { potion: 1 } })]));
    begin(encounter);
    const potions = labels(encounter).filter((l) => l.startsWith('Use Potion'));
    expect(potions).toEqual(['Use Potion on Keef', 'Use Potion on Ogre']);
    const events = run(encounter, { type: 'item', actor: 'keef', item: 'potion', target: 'ogre' });
    expect(only(events, 'healed').target).toBe('ogre');
  });

  it('0 HP: Unconscious, SP to zero, Temporary and positive effects gone, Permanent ones kept', () => {
    const encounter = start(
      duel([plainKeef(), plainKeef({ id: 'kid', name: 'Kid', hp: 30, items: {} })]),
    );
    begin(encounter, { keef: 3, kid: 2, ogre: 1 });
    for (const [status, ticks] of [['blind'], ['poison', 3], ['haste']] as const)
      inflict(encounter, 'kid', status, ticks);
    run(encounter, { type: 'defend', actor: 'keef' });
    run(encounter, { type: 'defend', actor: 'kid' });
    const events = attack(encounter, 'ogre', 'kid', 50, [1]);
    expect(only(events, 'knocked-out').target).toBe('kid');
    const kid = encounter.state.combatants.kid!;
    expect([kid.hp, kid.sp, kid.unconscious]).toEqual([0, 0, true]);
    expect(statuses(encounter, 'kid')).toEqual(['blind']);
  });

  it('a Potion does nothing for the Unconscious; a Phoenix Down revives; the dead stay dead', () => {
    const encounter = start(
      duel([
        plainKeef({ items: { potion: 1, 'phoenix-down': 2 } }),
        plainKeef({ id: 'kid', name: 'Kid', hp: 0 }),
      ]),
    );
    begin(encounter, { keef: 3, ogre: 1 });
    const potion = run(encounter, { type: 'item', actor: 'keef', item: 'potion', target: 'kid' });
    expect(only(potion, 'no-effect').reason).toContain('no effect on the Unconscious');
    run(encounter, { type: 'defend', actor: 'ogre' });
    const down = run(encounter, {
      type: 'item',
      actor: 'keef',
      item: 'phoenix-down',
      target: 'kid',
    });
    expect(only(down, 'revived')).toMatchObject({ target: 'kid', hp: 40 });
    run(encounter, { type: 'gm-death', target: 'kid' });
    const again = run(encounter, {
      type: 'item',
      actor: 'keef',
      item: 'phoenix-down',
      target: 'kid',
    });
    expect(only(again, 'no-effect').reason).toContain('dead');
  });

  it('Reraise: "immediately revived with 10% of your maximum HP", and Reraise ends', () => {
    const encounter = start(duel([plainKeef({ hp: 10 })]));
    begin(encounter);
    inflict(encounter, 'keef', 'reraise');
    run(encounter, { type: 'defend', actor: 'keef' });
    const events = attack(encounter, 'ogre', 'keef', 50, [1]);
    expect(only(events, 'revived')).toMatchObject({ target: 'keef', hp: 40, cause: 'Reraise' });
    expect(statuses(encounter, 'keef')).toEqual([]);
    expect(encounter.outcome().over).toBe(false);
  });

  it('Life, a Revive Tech; and Zombie reverses curative spells', () => {
    const encounter = start(
      duel([plainKeef({ techs: ['life', 'cure'] }), plainKeef({ id: 'kid', name: 'Kid', hp: 0 })]),
    );
    begin(encounter, { keef: 3, ogre: 1 });
    const life = run(encounter, { type: 'tech', actor: 'keef', tech: 'life', target: 'kid' });
    expect(only(life, 'revived')).toMatchObject({ hp: 100 });
    run(encounter, { type: 'defend', actor: 'ogre' });
    inflict(encounter, 'kid', 'zombie');
    const cure = run(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'cure', target: 'kid' },
      {
        'heal:kid': [1, 1],
      },
    );
    expect(only(cure, 'damage-dealt')).toMatchObject({ target: 'kid', amount: 70, cause: 'Cure' });
  });

  it('Wall reflects magic to the caster; with wallBounce, to a random opponent of the caster', () => {
    const encounter = start(
      duel([plainKeef({ techs: ['cure'] }), plainKeef({ id: 'kid', name: 'Kid', hp: 100 })]),
    );
    begin(encounter, { keef: 3, kid: 2, ogre: 1 });
    inflict(encounter, 'kid', 'wall');
    const events = run(encounter, { type: 'tech', actor: 'keef', tech: 'cure', target: 'kid' });
    expect(only(events, 'reflected')).toMatchObject({ from: 'kid', to: 'keef' });
    const bounced = start(
      duel(
        [plainKeef({ techs: ['cure'] }), plainKeef({ id: 'kid', name: 'Kid', hp: 100 })],
        [ogre({ hp: 500 })],
        {
          wallBounce: true,
        },
      ),
    );
    begin(bounced, { keef: 3, kid: 2, ogre: 1 });
    inflict(bounced, 'kid', 'wall');
    const heal = run(bounced, { type: 'tech', actor: 'keef', tech: 'cure', target: 'kid' });
    // "casting Cure on a Walled ally will result in healing your enemy!"
    expect(only(heal, 'reflected')).toMatchObject({ from: 'kid', to: 'ogre' });
    expect(only(heal, 'healed').target).toBe('ogre');
  });

  it('status effects against Resist: "equal to or greater than the target\'s Resist" lands', () => {
    const encounter = start(duel([plainKeef({ techs: ['sleep'] })]));
    begin(encounter);
    // Keef's Magic Accuracy 30 against the ogre's Resist 20: a natural 1 lands it... 31 >= 20.
    const weak = start(
      duel([plainKeef({ techs: ['sleep'], stats: { ...keef().stats, magicAccuracy: 0 } })]),
    );
    begin(weak);
    const missed = run(
      weak,
      { type: 'tech', actor: 'keef', tech: 'sleep', target: 'ogre' },
      { 'status:ogre': [19] },
    );
    expect(only(missed, 'status-rolled')).toMatchObject({ total: 19, resist: 20, success: false });
    const landed = run(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'sleep', target: 'ogre' },
      { 'status:ogre': [1] },
    );
    expect(only(landed, 'status-inflicted')).toMatchObject({ status: 'sleep', ticks: 3 });
  });

  it('the end of the battle clears Temporary and positive effects, not Permanent ones', () => {
    const encounter = start(duel([plainKeef()], [ogre({ hp: 10 })]));
    begin(encounter);
    inflict(encounter, 'keef', 'blind');
    inflict(encounter, 'keef', 'haste');
    inflict(encounter, 'keef', 'slow', 5);
    inflict(encounter, 'keef', 'poison', 5);
    attack(encounter, 'keef', 'ogre', 95, [1]);
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
    expect(statuses(encounter, 'keef')).toEqual(['blind']);
  });
});
