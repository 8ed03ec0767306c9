/**
 * Random Shining Force setups for the kernel's property tests: a field of random terrain, two to
 * four sides of random sheets (stats, mastery, weapons of every range, cursed accessories,
 * items to use, spells, natural attacks that inflict, Poison and HP carried in), and random
 * options; every pattern, spell and item from the starter content and the fixtures'.
 */

import { join } from 'node:path';
import fc from 'fast-check';
import { loadContent } from '../../../src/content/index.js';
import {
  STARTER_CONTENT_DIR,
  shiningForce,
  shiningForceKinds,
  shiningForceSetupFrom,
} from '../../../src/rulesets/shining-force/index.js';
import { type ShiningForceSetup, STATUSES } from '../../../src/rulesets/shining-force/model.js';
import { FIXTURES } from './helpers.js';

type Sheet = ShiningForceSetup['sides'][number]['combatants'][number];

/** The starter content and the fixtures': where `gm add` finds its newcomers. */
export const LIBRARY = (() => {
  const loaded = loadContent(
    [STARTER_CONTENT_DIR, join(FIXTURES, 'content')],
    [...shiningForceKinds],
    { within: [STARTER_CONTENT_DIR, FIXTURES] },
  );
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.library;
})();

/** The patterns, spells and items of the starter content and the fixtures', as a setup has them. */
function baseSetup(): ShiningForceSetup {
  const built = shiningForceSetupFrom(LIBRARY, {
    battlefield: { rows: ['..', '..'] },
    sides: [
      { id: 'a', name: 'A', combatants: [{ monster: 'goblin', at: 'A1' }] },
      { id: 'b', name: 'B', combatants: [{ monster: 'goblin', id: 'g2', at: 'B2' }] },
    ],
  });
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
}

export const BASE = baseSetup();

const WEAPONS = Object.entries(BASE.items)
  .filter(([, i]) => i.type === 'weapon')
  .map(([id]) => id);
const ACCESSORIES = Object.entries(BASE.items)
  .filter(([, i]) => i.type === 'accessory')
  .map(([id]) => id);
/** Anything that can sit in the bag and be used: items, and weapons with a use. */
const USABLE = Object.entries(BASE.items)
  .filter(([, i]) => i.use !== undefined)
  .map(([id]) => id);
const SPELLS = Object.keys(BASE.spells);
/** The statuses a blow or a spell may inflict here; a curse comes only from the GM (below). */
const INFLICTED = STATUSES.filter((s) => s !== 'curse');
const RANGES = ['range-1', 'range-1-2', 'range-2', 'range-2-3'];
const TERRAIN = '....,,fh~#';

const stats = fc.record({
  hp: fc.integer({ min: 4, max: 24 }),
  mp: fc.integer({ min: 0, max: 20 }),
  attack: fc.integer({ min: 2, max: 14 }),
  defence: fc.integer({ min: 0, max: 9 }),
  agility: fc.integer({ min: 0, max: 12 }),
  luck: fc.integer({ min: 0, max: 25 }),
  movement: fc.integer({ min: 0, max: 7 }),
});

const inflicts = fc.option(
  fc.record(
    {
      status: fc.constantFrom(...INFLICTED),
      chance: fc.integer({ min: 0, max: 100 }),
      turns: fc.integer({ min: 1, max: 4 }),
      amount: fc.integer({ min: 1, max: 4 }),
    },
    { requiredKeys: ['status', 'chance'] },
  ),
  { nil: undefined },
);

/** One sheet, without its id, name, kind and cell (the side and the field give those). */
const sheetParts = fc.record({
  level: fc.integer({ min: 1, max: 20 }),
  mastery: fc.integer({ min: 1, max: 3 }),
  stats,
  weapon: fc.option(fc.constantFrom(...WEAPONS), { nil: undefined, freq: 4 }),
  accessory: fc.option(fc.constantFrom(...ACCESSORIES), { nil: undefined, freq: 2 }),
  cracked: fc.boolean(),
  bag: fc.array(fc.constantFrom(...USABLE), { maxLength: 3 }),
  spells: fc.subarray(SPELLS, { maxLength: 4 }),
  attackRange: fc.constantFrom(...RANGES),
  inflicts,
  poison: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined, freq: 6 }),
  hurt: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined, freq: 4 }),
  expReward: fc.integer({ min: 0, max: 30 }),
  gold: fc.integer({ min: 0, max: 30 }),
});

export const optionsArbitrary = fc.record(
  {
    turnOrderSpread: fc.constantFrom(0, 1, 50, 100),
    minimumDamage: fc.constantFrom(0, 1, 3),
    criticalDamagePercent: fc.tuple(
      fc.integer({ min: 100, max: 400 }),
      fc.integer({ min: 100, max: 400 }),
      fc.integer({ min: 100, max: 400 }),
    ),
    criticalRatePercent: fc.tuple(
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 100 }),
    ),
    statusLuck: fc.constantFrom('multiply', 'subtract', 'none'),
    crackOnAttack: fc.boolean(),
    counterNeedsReach: fc.boolean(),
    passThroughAllies: fc.boolean(),
    maxRounds: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 40 })),
  },
  { requiredKeys: [] },
);

type Parts = typeof sheetParts extends fc.Arbitrary<infer T> ? T : never;

function sheetOf(parts: Parts, id: string, force: boolean, at: string): Sheet {
  const items: Sheet['items'] = [];
  if (parts.weapon !== undefined)
    items.push({ item: parts.weapon, cracked: parts.cracked, equipped: true });
  if (parts.accessory !== undefined)
    items.push({ item: parts.accessory, cracked: false, equipped: true });
  for (const item of parts.bag) items.push({ item, cracked: false, equipped: false });
  return {
    id,
    name: id,
    kind: force ? 'force' : 'monster',
    level: parts.level,
    exp: 0,
    stats: parts.stats,
    mastery: parts.mastery,
    items,
    spells: parts.spells,
    ...(force
      ? {}
      : {
          attack: {
            name: 'Claws',
            range: parts.attackRange,
            ...(parts.inflicts === undefined ? {} : { inflicts: parts.inflicts }),
          },
        }),
    expReward: parts.expReward,
    gold: parts.gold,
    at,
    ...(parts.poison === undefined ? {} : { poison: parts.poison }),
    ...(parts.hurt === undefined ? {} : { hp: Math.max(1, parts.stats.hp - parts.hurt) }),
  } as Sheet;
}

/** A whole random setup: its field, sides and options. */
export const setupArbitrary: fc.Arbitrary<ShiningForceSetup> = fc
  .record({
    width: fc.integer({ min: 4, max: 12 }),
    height: fc.integer({ min: 3, max: 8 }),
    terrain: fc.array(fc.integer({ min: 0, max: TERRAIN.length - 1 }), {
      minLength: 96,
      maxLength: 96,
    }),
    sides: fc.array(
      fc.record({
        force: fc.boolean(),
        sheets: fc.array(sheetParts, { minLength: 1, maxLength: 4 }),
      }),
      { minLength: 2, maxLength: 4 },
    ),
    cells: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
    options: optionsArbitrary,
  })
  .map(({ width, height, terrain, sides, cells, options }) => {
    const rows: string[] = [];
    for (let y = 0; y < height; y++) {
      let row = '';
      for (let x = 0; x < width; x++) row += TERRAIN[terrain[y * width + x]!]!;
      rows.push(row);
    }
    // Everyone on a passable cell of their own, picked among those left.
    const free: number[] = [];
    for (let cell = 0; cell < width * height; cell++)
      if (!'~#'.includes(rows[Math.floor(cell / width)]![cell % width]!)) free.push(cell);
    let picked = 0;
    const cellName = (cell: number) =>
      `${String.fromCharCode(65 + (cell % width))}${Math.floor(cell / width) + 1}`;
    const built = sides.map((side, s) => ({
      id: `side-${s}`,
      name: `Side ${s}`,
      force: side.force,
      combatants: side.sheets.flatMap((parts, k) => {
        if (free.length === 0) return [];
        const at = free.splice(cells[picked++ % cells.length]! % free.length, 1)[0]!;
        return [sheetOf(parts, `c${s}-${k}`, side.force, cellName(at))];
      }),
    }));
    return { rows, sides: built, options };
  })
  .filter(({ sides }) => sides.every((s) => s.combatants.length > 0))
  .map(({ rows, sides, options }) => {
    const parsed = shiningForce.parseSetup({
      ...BASE,
      battlefield: { ...BASE.battlefield, rows },
      sides,
      options: { ...BASE.options, ...options },
    });
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  });

const CONTENT_IDS = [
  'goblin',
  'ooze',
  'dark-mage',
  'giant-bat',
  'witch',
  'siren',
  'viper',
  'shaman',
  'orc-archer',
  'max',
  'tao',
  'medic',
  'cursed-knight',
  'blade',
];
const GM_STATUSES = [...INFLICTED, 'curse'];

/**
 * A GM's line as picks: what to do and picks for whom, what and how much, read against the state
 * it is applied to (`gmLine`).
 */
export const gmPicks = fc.tuple(
  fc.constantFrom(
    'status+',
    'status-',
    'skip',
    'remove',
    'hp',
    'mp',
    'item',
    'cracked',
    'move',
    'add',
    'clock',
    'damage',
    'heal',
  ),
  fc.nat(),
  fc.nat(),
  fc.nat(),
);

/** The line `picks` mean in this state: ids, sides, items, cells and statuses of the battle. */
export function gmLine(
  state: {
    combatants: readonly { id: string; side: string; items: readonly { item: string }[] }[];
  },
  setup: ShiningForceSetup,
  [what, a, b, c]: readonly [string, number, number, number],
): string {
  const who = state.combatants[a % state.combatants.length]!;
  const status = GM_STATUSES[b % GM_STATUSES.length]!;
  const held = who.items.length === 0 ? 'medical-herb' : who.items[b % who.items.length]!.item;
  const width = setup.battlefield.rows[0]!.length;
  const height = setup.battlefield.rows.length;
  const cell = `${String.fromCharCode(65 + (b % width))}${(c % height) + 1}`;
  switch (what) {
    case 'status+':
      return `status ${who.id} +${status}${c % 3 === 0 ? '' : c % 3 === 1 ? ' infinite' : ` ${1 + (c % 4)}`}`;
    case 'status-':
      return `status ${who.id} -${status}`;
    case 'skip':
      return `skip ${who.id}`;
    case 'remove':
      return `remove ${who.id} ${b % 2 === 0 ? 'fled' : 'dismissed'}`;
    case 'hp':
      return `hp ${who.id} ${b % 3 === 0 ? `-${c % 8}` : c % 12}`;
    case 'mp':
      return `mp ${who.id} ${c % 10}`;
    case 'item':
      return `item ${who.id} ${held} ${c % 3 === 0 ? '+1' : c % 3}`;
    case 'cracked':
      return `cracked ${who.id} ${held} ${c % 2 === 0 ? 'yes' : 'no'}`;
    case 'move':
      return `move ${who.id} ${cell}`;
    case 'add': {
      const side = setup.sides[b % setup.sides.length]!.id;
      return `add ${CONTENT_IDS[c % CONTENT_IDS.length]} to ${side}`;
    }
    case 'clock':
      return `clock ${who.id} ${b % 2 === 0 ? `+${c % 3}` : 1 + (c % 6)}`;
    case 'damage':
      return `damage ${who.id} ${1 + (c % 9)}${b % 2 === 0 ? ' raw' : ''}`;
    default:
      return `heal ${who.id} ${1 + (c % 9)}`;
  }
}
