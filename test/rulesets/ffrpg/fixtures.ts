import type { FfrpgSetupInput } from '../../../src/rulesets/ffrpg/index.js';

const attributes = (SPD: number, AGI = 8) => ({ STR: 8, VIT: 8, AGI, SPD, MAG: 8, SPR: 8 });

/** The Wind Cave party against the Heket, written inline (the content files are tested apart). */
export function windCave(overrides: Partial<FfrpgSetupInput> = {}): FfrpgSetupInput {
  return {
    sides: [
      {
        id: 'party',
        name: 'The party',
        party: true,
        combatants: [
          {
            id: 'hiro',
            name: 'Hiro',
            kind: 'character',
            attributes: attributes(5, 10),
            skills: { Awareness: 50, Stealth: 20, Guns: 50 },
            stats: { hp: 60, mp: 10, acc: 42, eva: 10, arm: 4 },
            weapon: { name: 'Valiant Rifle', damage: '2*AGI + d12', skill: 'Guns' },
          },
          {
            id: 'haze',
            name: 'Haze',
            kind: 'character',
            attributes: attributes(8),
            skills: { Stealth: 40, Swords: 50 },
            stats: { hp: 80, mp: 10, acc: 40, eva: 12, arm: 6 },
            weapon: { name: 'Sword', damage: '2*STR + d10', skill: 'Swords' },
            abilities: ['darkside'],
          },
          {
            id: 'mint',
            name: 'Mint',
            kind: 'character',
            attributes: attributes(8),
            skills: { Stealth: 40 },
            stats: { hp: 50, mp: 30, acc: 30, macc: 60, eva: 14, arm: 2, marm: 8 },
            abilities: ['cure', 'poison-strike'],
          },
        ],
      },
      {
        id: 'enemies',
        name: 'The Heket',
        combatants: [
          {
            id: 'heket',
            name: 'Heket',
            kind: 'monster',
            attributes: { STR: 12, VIT: 10, AGI: 6, SPD: 6, MAG: 6, SPR: 6 },
            stats: { hp: 300, acc: 70, eva: 22, arm: 10, marm: 5 },
            weapon: { name: 'Webbed Claw', damage: '3*STR + d10' },
            affinities: { wind: 'absorbance', ice: 'weakness' },
            rewards: { xp: 1560, gil: 820 },
          },
        ],
      },
    ],
    abilities: {
      darkside: {
        name: 'Darkside',
        type: 'fast',
        target: 'single',
        cost: { hpPercent: 25 },
        cos: { kind: 'formula', formula: 'ACC + SKILL', guard: 'eva' },
        damage: { element: 'shadow', percent: 100 },
      },
      cure: {
        name: 'Cure',
        type: 'magic',
        target: 'single',
        mpCost: 6,
        heal: { code: 'MAG + 2d8' },
      },
      'poison-strike': {
        name: 'Poison Strike',
        type: 'slow',
        chargeTime: 4,
        target: 'single',
        mpCost: 4,
        inflicts: [{ status: 'poison', timer: 2 }],
      },
      counter: {
        name: 'Counter',
        type: 'reaction',
        trigger: 'attacked',
        reaction: 'counter-attack',
        cos: { kind: 'flat', percent: 30 },
      },
    },
    statuses: {
      poison: {
        name: 'Poison',
        polarity: 'negative',
        timer: 4,
        effects: [{ kind: 'status-phase-damage', percentOfMaxHp: 10 }],
      },
      sleep: {
        name: 'Sleep',
        polarity: 'negative',
        timer: 4,
        effects: [{ kind: 'cannot-act' }, { kind: 'ends-on-damage' }],
      },
      protect: {
        name: 'Protect',
        polarity: 'positive',
        timer: 6,
        effects: [{ kind: 'damage-taken-percent', damage: 'physical', percent: -50 }],
      },
    },
    levelTable: Array.from({ length: 99 }, (_, i) => ({ level: i + 1, xp: i * i * 100 })),
    ...overrides,
  };
}
