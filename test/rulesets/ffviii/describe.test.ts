/**
 * What the table sees: the log of the text's example in its own words, and the shot clock
 * (the odds are in odds.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { describeEvents } from '../../../src/rulesets/ffviii/describe.js';
import { ffviiiSystem } from '../../../src/rulesets/ffviii/index.js';
import { beginRound, EHLRIC, type FfviiiEncounter, GIANT, rollOf, run, start } from './helpers.js';

function lines(encounter: FfviiiEncounter, events: Parameters<typeof describeEvents>[0]): string[] {
  return describeEvents(events, encounter.state);
}

describe('the log', () => {
  it('"Fnord rolls the initiative dice and gets a 8. He adds this to Ehlric\'s Speed of 8 for a total of 16"', () => {
    const encounter = start();
    expect(lines(encounter, beginRound(encounter))).toEqual([
      'Round 1: initiative (d10 + Speed)',
      '  Ehlric Lineas: d10 8 (rolled at the table) + Speed 8 = 16',
      '  Iron Giant: d10 9 (rolled at the table) + Speed 3 = 12',
      '  16 shots this round',
      'Shot 16',
    ]);
  });

  it('"he rolls a -4 ... bounce off the steel hide of the giant with no effect at all"', () => {
    const encounter = start();
    beginRound(encounter);
    expect(
      lines(encounter, run(encounter, { type: 'attack', actor: EHLRIC, target: GIANT })),
    ).toEqual([
      'Ehlric Lineas: Attack with Staff (Iron Giant), 4 shots, next on shot 12',
      '  Iron Giant may dodge',
    ]);
    const answered = run(
      encounter,
      { type: 'take-it', actor: GIANT },
      { 'attack:iron-giant': rollOf(-4) },
    );
    expect(lines(encounter, answered)).toEqual([
      '  Iron Giant does not dodge',
      '  Martial Arts AV 11 + action dice -4 (+[1] -[5]) (rolled at the table) = 7 against Dodge 6: success by 1',
      '  Iron Giant takes 0 damage (Strength 8 + 4 + margin 1 - Toughness 15 = 0), 60 HP left',
      'Shot 12',
    ]);
  });

  it('"The Iron Giant has a Magic Evade attribute of 1, and even with dodging, it only rises to 4 ... the Giant takes 12 damage!"', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT });
    const answered = run(encounter, { type: 'dodge', actor: GIANT }, { 'cast:iron-giant': [3, 1] });
    expect(lines(encounter, answered)).toEqual([
      '  Iron Giant dodges (+3, 1 shot): acts next on shot 11',
      '  Thunder: 2 left in the Spell Matrix',
      '  Sorcery AV 10 + action dice +2 (+[3] -[1]) (rolled at the table) = 12 against Magic Evade 1 + 3 (dodging) = 4: success by 8',
      '  Iron Giant takes 12 damage (Sorcery 10 + 5 - Spirit against lightning 3 = 12), 48 HP left',
      'Shot 12',
    ]);
  });

  it('"Summoning is a 8 shot action, and Ehlric only has 2 shots left": the debt is in the log', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 14 });
    run(encounter, { type: 'pass', actor: GIANT });
    const events = run(encounter, { type: 'summon', actor: EHLRIC, gf: 'infernus', target: GIANT });
    expect(lines(encounter, events)).toEqual([
      'Ehlric Lineas: Summon Infernus (Iron Giant), 8 shots, no shots left this round; 6 shots carry over as debt',
      'End of round 1',
    ]);
    const round2 = beginRound(encounter, {
      'initiative:ehlric': [5],
      'initiative:iron-giant': [1],
    });
    expect(lines(encounter, round2).slice(0, 2)).toEqual([
      'Round 2: initiative (d10 + Speed - shot debt)',
      '  Ehlric Lineas: d10 5 (rolled at the table) + Speed 8 - debt 6 = 7',
    ]);
  });
});

describe('the shot clock view', () => {
  it('shows who acts on which shot, highest first, the one to act marked', () => {
    const encounter = start();
    expect(ffviiiSystem.view(encounter.state).timing).toBe('Round 1: before initiative');
    beginRound(encounter);
    const view = ffviiiSystem.view(encounter.state);
    expect(view.timing).toBe('Round 1, Shot 16 of 16');
    expect(view.order).toEqual(['>  16 Ehlric Lineas', '   12 Iron Giant']);
    expect(view.actor).toBe(EHLRIC);
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 14 });
    run(encounter, { type: 'pass', actor: GIANT });
    run(encounter, { type: 'summon', actor: EHLRIC, gf: 'infernus', target: GIANT });
    const between = ffviiiSystem.view(encounter.state);
    expect(between.order.find((l) => l.includes('Ehlric'))).toContain(
      '6 shots of debt, carrying Summon Infernus',
    );
  });
});
