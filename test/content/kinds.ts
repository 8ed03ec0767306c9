import { z } from 'zod';
import {
  contentId,
  defineKind,
  diceCode,
  intInRange,
  nonNegativeInt,
  percentage,
} from '../../src/content/index.js';

/** Tiny kinds standing in for a ruleset's: a weapon with a damage code, a monster using them. */
export const weapon = defineKind({
  kind: 'test/weapon',
  description: 'A weapon for the content tests.',
  schema: z.object({
    name: z.string().min(1),
    damage: diceCode(),
    accuracy: percentage({ step: 5 }).optional(),
    tags: z.array(z.enum(['blade', 'blunt', 'ranged'])).default([]),
  }),
});

export const monster = defineKind({
  kind: 'test/monster',
  description: 'A monster for the content tests.',
  schema: z.object({
    name: z.string().min(1),
    level: intInRange(1, 99),
    stats: z.strictObject({ hp: intInRange(1, 99999), mp: nonNegativeInt() }),
    weapons: z.array(contentId()).default([]),
    resist: percentage({ step: 25 }).optional(),
  }),
  references: (entity) =>
    entity.weapons.map((id, index) => ({ kind: 'test/weapon', id, path: `weapons[${index}]` })),
});

export const KINDS = [weapon, monster];

export const DAGGER_YAML = `format: 1
kind: test/weapon
id: dagger
name: Dagger
damage: 2*STR + d6
tags: [blade]
`;

export const HEKET_YAML = `format: 1
kind: test/monster
id: heket
source: test bestiary, p. 1
sample: [stats.mp]
name: Heket
level: 12
stats:
  hp: 320
  mp: 0
weapons:
  - dagger
`;

export const BOMB_JSON = `{
  "format": 1,
  "kind": "test/monster",
  "id": "bomb",
  "name": "Bomb",
  "level": 8,
  "stats": { "hp": 150, "mp": 30 }
}
`;
