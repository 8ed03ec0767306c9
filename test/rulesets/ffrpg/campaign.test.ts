/** FFRPG between fights: XP, Gil, Levels, items won, HP and MP carried, rest and awards. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContentLibrary, loadContent, parseContentText } from '../../../src/content/index.js';
import { Encounter } from '../../../src/engine/index.js';
import type { CampaignRoster, CampaignService } from '../../../src/rulesets/campaign.js';
import {
  type EncounterSpec,
  type FfrpgCharacterState,
  type FfrpgServiceInput,
  type FfrpgSetup,
  type FfrpgState,
  ffrpg,
  ffrpgCampaign,
  ffrpgKinds,
  ffrpgSetupFrom,
  STARTER_CONTENT_DIR,
} from '../../../src/rulesets/ffrpg/index.js';
import { SYSTEMS } from '../../../src/rulesets/index.js';

const campaign = ffrpgCampaign;

let loaded: ContentLibrary | undefined;
function library(): ContentLibrary {
  if (loaded === undefined) {
    const read = loadContent([STARTER_CONTENT_DIR], [...ffrpgKinds]);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    loaded = read.library;
  }
  return loaded;
}

/** The Wind Cave example's spec: the encounter file without its envelope. */
function windCaveSpec(): EncounterSpec {
  const file = 'examples/ffrpg-wind-cave.yaml';
  const parsed = parseContentText(file, readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const { format, ruleset, name, description, ...spec } = parsed.content.value as Record<
    string,
    unknown
  >;
  return spec as EncounterSpec;
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function recruited(ids: readonly string[] = ['hiro', 'haze', 'mint']): CampaignRoster {
  const characters = Object.fromEntries(
    ids.map((id) => [id, value(campaign.recruit(library(), id))]),
  );
  return value(campaign.parseRoster({ characters, party: campaign.emptyParty }));
}

function stateOf(roster: CampaignRoster, id: string): FfrpgCharacterState {
  return roster.characters[id] as unknown as FfrpgCharacterState;
}

/** Plays an encounter with the first legal action each time until it is over. */
function playOut(setup: FfrpgSetup, seed: number): FfrpgState {
  const encounter = value(Encounter.create(ffrpg, setup, seed));
  for (let n = 0; !ffrpg.outcome(encounter.state).over; n++) {
    if (n > 5000) throw new Error('the fight did not end');
    value(encounter.submit(ffrpg.legalActions(encounter.state)[0]!.command));
  }
  return encounter.state;
}

/** The Heket beaten at once by the GM, everyone standing. */
function heketBeaten(setup: FfrpgSetup): FfrpgState {
  const encounter = value(Encounter.create(ffrpg, setup, 1));
  return knockOutHeket(encounter);
}

/** The GM drops the Heket to 0 HP; the battle ends when the countdown next moves. */
function knockOutHeket(encounter: ReturnType<typeof start>): FfrpgState {
  value(encounter.submit({ type: 'gm-set', target: 'heket', resource: 'hp', value: 0 }));
  if (!ffrpg.outcome(encounter.state).over) value(encounter.submit({ type: 'begin-round' }));
  expect(ffrpg.outcome(encounter.state).over).toBe(true);
  return encounter.state;
}

function start(setup: FfrpgSetup) {
  return value(Encounter.create(ffrpg, setup, 1));
}

describe('the system', () => {
  it('is wired as the campaign of the ffrpg system', () => {
    expect(SYSTEMS.find((s) => s.ruleset.id === 'ffrpg')?.campaign).toBe(ffrpgCampaign);
  });
});

describe('recruit and the roster', () => {
  it('a recruit starts at the Level, XP, HP and MP of the sheet, with no Gil', () => {
    expect(value(campaign.recruit(library(), 'hiro'))).toEqual({
      level: 1,
      xp: 0,
      gil: 0,
      hp: 72,
      mp: 12,
      statuses: [],
    });
  });

  it('refuses an id no character sheet has', () => {
    const r = campaign.recruit(library(), 'heket');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('campaign/unknown-character');
  });

  it('a bad roster is refused naming the character and the field', () => {
    const roster = recruited();
    const bad = {
      ...roster,
      characters: { ...roster.characters, haze: { ...stateOf(roster, 'haze'), hp: -3 } },
    };
    const r = campaign.parseRoster(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/^haze\.hp: /);
    const party = campaign.parseRoster({ ...roster, party: { hpAfterBattle: 'sometimes' } });
    expect(!party.ok && party.error.message).toMatch(/^party\.hpAfterBattle: /);
    const missing = campaign.parseRoster({ characters: { mint: { level: 1 } }, party: null });
    expect(!missing.ok && missing.error.message).toMatch(/^mint\.xp: /);
  });
});

describe('what the roster names in the content', () => {
  it("each character's lasting Status Conditions and the party's level table; won items are names", () => {
    const roster = recruited(['hiro', 'mint']);
    const named = value(
      campaign.parseRoster({
        characters: {
          ...roster.characters,
          hiro: { ...stateOf(roster, 'hiro'), statuses: ['poison', 'regen'] },
        },
        party: { levelTable: 'standard', items: { 'Heket Slime': 2 } },
      }),
    );
    const references = value(campaign.references(named));
    expect(references).toEqual([
      { kind: 'ffrpg/status', id: 'poison', holder: 'hiro', where: 'lasting status' },
      { kind: 'ffrpg/status', id: 'regen', holder: 'hiro', where: 'lasting status' },
      { kind: 'ffrpg/level-table', id: 'standard', holder: null, where: 'level table' },
    ]);
    for (const r of references) expect(library().has(r.kind, r.id), r.id).toBe(true);
    expect(value(campaign.references(roster))).toEqual([]);
    const bad = campaign.references({ characters: { hiro: { level: 0 } }, party: {} });
    expect(bad.ok ? '' : bad.error.code).toBe('campaign/invalid-roster');
  });
});

describe('after the battle', () => {
  it('"that comes out to 1560 XP and 820 Gil. You each get 520 XP"', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    const final = heketBeaten(setup);
    const step = value(campaign.afterBattle(library(), setup, final, roster, dice()));
    expect(step.report).toContain('The party wins 1560 XP and 820 Gil.');
    for (const id of ['hiro', 'haze', 'mint']) {
      // 520 XP passes Level 2's 500 on the starter level table.
      expect(stateOf(step.roster, id)).toMatchObject({ xp: 520, level: 2, gil: 273 });
    }
    expect(step.report).toContain('Hiro gains 520 XP (520 in all) and reaches Level 2.');
    // 820 does not divide by three: the odd Gil stays with the party, not lost.
    expect(step.roster.party).toMatchObject({ gil: 1 });
  });

  it('is refused while the fight goes on, and changes nothing', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    const encounter = value(Encounter.create(ffrpg, setup, 1));
    const r = campaign.afterBattle(library(), setup, encounter.state, roster, dice());
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('campaign/battle-not-over');
  });

  it('items on the beaten monsters go to the party', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    const heket = setup.sides[1]!.combatants[0]!;
    const withLoot: FfrpgSetup = {
      ...setup,
      sides: [
        setup.sides[0]!,
        {
          ...setup.sides[1]!,
          combatants: [
            { ...heket, rewards: { ...heket.rewards, items: [{ name: 'Skystone', count: 1 }] } },
          ],
        },
      ],
    };
    const step = value(
      campaign.afterBattle(library(), withLoot, heketBeaten(withLoot), roster, dice()),
    );
    expect(step.roster.party).toMatchObject({ items: { Skystone: 1 } });
    expect(step.report).toContain('The party finds 1 x Skystone (Heket).');
  });

  it('XP is gained "by overcoming obstacles": a monster that fled was not overcome, and its loot went with it', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    const heket = setup.sides[1]!.combatants[0]!;
    const withLoot: FfrpgSetup = {
      ...setup,
      sides: [
        setup.sides[0]!,
        {
          ...setup.sides[1]!,
          combatants: [
            { ...heket, rewards: { ...heket.rewards, items: [{ name: 'Skystone', count: 1 }] } },
          ],
        },
      ],
    };
    const encounter = start(withLoot);
    value(encounter.submit({ type: 'gm-remove', target: 'heket', reason: 'fled' }));
    if (!ffrpg.outcome(encounter.state).over) value(encounter.submit({ type: 'begin-round' }));
    expect(ffrpg.outcome(encounter.state)).toMatchObject({ over: true, winner: 'party' });
    const step = value(campaign.afterBattle(library(), withLoot, encounter.state, roster, dice()));
    expect(step.report).toContain('The party wins 0 XP and 0 Gil.');
    expect(step.roster.party).toMatchObject({ items: {} });
    expect(stateOf(step.roster, 'hiro')).toMatchObject({ xp: 0, gil: 0 });
  });

  it('the knocked out get no share, keep 0 HP, and their timed Status Conditions run out', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    const encounter = value(Encounter.create(ffrpg, setup, 1));
    value(encounter.submit({ type: 'gm-status', target: 'haze', status: 'protect' }));
    value(
      encounter.submit({ type: 'gm-status', target: 'mint', status: 'regen', timer: 'infinite' }),
    );
    value(encounter.submit({ type: 'gm-set', target: 'hiro', resource: 'hp', value: 0 }));
    const step = value(
      campaign.afterBattle(library(), setup, knockOutHeket(encounter), roster, dice()),
    );
    expect(stateOf(step.roster, 'hiro')).toMatchObject({ hp: 0, xp: 0, gil: 0 });
    expect(stateOf(step.roster, 'haze')).toMatchObject({ xp: 780, gil: 410, statuses: [] });
    expect(stateOf(step.roster, 'mint').statuses).toEqual(['regen']);
    expect(step.report).toContain("Haze's Protect runs out with the fight.");
    expect(step.report).toContain('Hiro is knocked out (0 of 72 HP) until healed or rested.');
  });

  it('with hpAfterBattle: restored, those standing are back to full', () => {
    const base = recruited();
    const roster = { ...base, party: { ...(base.party as object), hpAfterBattle: 'restored' } };
    const setup = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    const encounter = value(Encounter.create(ffrpg, setup, 1));
    value(encounter.submit({ type: 'gm-set', target: 'haze', resource: 'hp', value: 5 }));
    value(encounter.submit({ type: 'gm-set', target: 'hiro', resource: 'hp', value: 0 }));
    const step = value(
      campaign.afterBattle(library(), setup, knockOutHeket(encounter), roster, dice()),
    );
    expect(stateOf(step.roster, 'haze').hp).toBe(96);
    expect(stateOf(step.roster, 'hiro').hp).toBe(0);
  });
});

describe('a roster across two fights of the Wind Cave', () => {
  it('the second fight starts from what the first left', () => {
    const roster = recruited();
    const first = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    // A fresh roster starts the fight the encounter file alone would.
    const startOf = (setup: FfrpgSetup) =>
      Object.values(ffrpg.initialState(setup).combatants).map((c) => ({
        id: c.id,
        hp: c.hp,
        mp: c.mp,
        level: c.level,
        xp: c.xp,
        statuses: c.statuses,
        down: c.down,
      }));
    expect(startOf(first)).toEqual(startOf(value(ffrpgSetupFrom(library(), windCaveSpec()))));
    const final = playOut(first, 1);
    expect(ffrpg.outcome(final)).toMatchObject({ over: true, winner: 'party' });
    const step = value(campaign.afterBattle(library(), first, final, roster, dice()));
    // At this seed Hiro falls; Haze and Mint split the 1560 XP.
    expect(stateOf(step.roster, 'hiro')).toMatchObject({ hp: 0, xp: 0, level: 1 });
    expect(stateOf(step.roster, 'haze')).toMatchObject({ xp: 780, level: 2, gil: 410 });
    expect(stateOf(step.roster, 'haze').hp).toBeLessThan(96);

    const second = value(campaign.setupFrom(library(), windCaveSpec(), step.roster));
    const start = ffrpg.initialState(second);
    for (const id of ['hiro', 'haze', 'mint']) {
      const lasting = stateOf(step.roster, id);
      const c = start.combatants[id]!;
      expect({ hp: c.hp, mp: c.mp, level: c.level, xp: c.xp }).toEqual({
        hp: lasting.hp,
        mp: lasting.mp,
        level: lasting.level,
        xp: lasting.xp,
      });
    }
    expect(start.combatants.hiro!.down).toBe(true);
    // The Heket is not on the roster: it starts from its sheet.
    expect(start.combatants.heket!.hp).toBe(200);

    const again = value(
      campaign.afterBattle(library(), second, playOut(second, 2), step.roster, dice()),
    );
    for (const id of ['hiro', 'haze', 'mint'])
      expect(stateOf(again.roster, id).xp).toBeGreaterThanOrEqual(stateOf(step.roster, id).xp);
  });

  it('a roster character fights under its own id', () => {
    const spec = windCaveSpec();
    const renamed = {
      ...spec,
      sides: spec.sides.map((side, i) =>
        i === 0
          ? {
              ...side,
              combatants: [{ character: 'hiro', id: 'hiro-2' }, ...side.combatants.slice(1)],
            }
          : side,
      ),
    };
    const r = campaign.setupFrom(library(), renamed, recruited());
    expect(!r.ok && r.error.code).toBe('campaign/renamed');
  });

  it('a status the content does not define is refused', () => {
    const roster = recruited();
    const bad = {
      ...roster,
      characters: {
        ...roster.characters,
        hiro: { ...stateOf(roster, 'hiro'), statuses: ['doom'] },
      },
    };
    const r = campaign.setupFrom(library(), windCaveSpec(), bad);
    expect(!r.ok && r.error.message).toMatch(/unknown status 'doom'/);
  });
});

describe('services', () => {
  function wounded(): CampaignRoster {
    const roster = recruited();
    return value(
      campaign.parseRoster({
        ...roster,
        characters: {
          ...roster.characters,
          hiro: { ...stateOf(roster, 'hiro'), hp: 0, gil: 50, statuses: ['poison'] },
          haze: { ...stateOf(roster, 'haze'), hp: 10, mp: 2, gil: 50, statuses: ['regen'] },
          mint: { ...stateOf(roster, 'mint'), gil: 5 },
        },
      }),
    );
  }

  it('rest: full HP and MP, the knocked out back, negative Status Conditions treated', () => {
    const step = value(
      serve(wounded(), { type: 'rest', characters: ['hiro', 'haze'], gil: 20 }, dice()),
    );
    expect(stateOf(step.roster, 'hiro')).toMatchObject({ hp: 72, mp: 12, gil: 30, statuses: [] });
    expect(stateOf(step.roster, 'haze')).toMatchObject({
      hp: 96,
      mp: 10,
      gil: 30,
      statuses: ['regen'],
    });
    expect(step.report[0]).toBe(
      'Hiro rests and is back on their feet: 72 HP, 12 MP; Poison treated (20 Gil).',
    );
  });

  it('rest is refused, changing nothing, when someone cannot pay or nobody needs it', () => {
    const roster = wounded();
    const before = JSON.stringify(roster);
    const poor = serve(roster, { type: 'rest', gil: 20 }, dice());
    expect(!poor.ok && poor.error.message).toBe('resting costs 20 Gil; Mint has 5: nobody rests');
    const none = serve(roster, { type: 'rest', characters: ['mint'] }, dice());
    expect(!none.ok && none.error.code).toBe('campaign/nothing-to-do');
    const stranger = serve(roster, { type: 'rest', characters: ['heket'] }, dice());
    expect(!stranger.ok && stranger.error.code).toBe('campaign/not-on-roster');
    const bad = serve(roster, { type: 'raise', character: 'hiro' } as never, dice());
    expect(!bad.ok && bad.error.code).toBe('campaign/invalid-service');
    expect(JSON.stringify(roster)).toBe(before);
  });

  it('award: XP for "achievements within the game", Levels by the party\'s table', () => {
    const base = recruited();
    const roster = { ...base, party: { ...(base.party as object), levelTable: 'standard' } };
    const step = value(
      serve(roster, { type: 'award', characters: ['mint'], xp: 1200, gil: 10 }, dice()),
    );
    expect(stateOf(step.roster, 'mint')).toMatchObject({ xp: 1200, level: 3, gil: 10 });
    expect(step.report).toEqual([
      'Mint gains 1200 XP (1200 in all) and reaches Level 3 and 10 Gil.',
    ]);
    const noTable = value(serve(base, { type: 'award', xp: 1200 }, dice()));
    expect(stateOf(noTable.roster, 'hiro')).toMatchObject({ xp: 1200, level: 1 });
  });
});

function serve(roster: CampaignRoster, service: FfrpgServiceInput, rolls = dice()) {
  return campaign.applyService(library(), roster, service as CampaignService, rolls);
}

function dice() {
  return {
    roll: () => {
      throw new Error('FFRPG rolls nothing between fights');
    },
  };
}

describe('properties', () => {
  // Mint stands at the start, so the party can win.
  const hps = fc.record({
    hiro: fc.nat(72),
    haze: fc.nat(96),
    mint: fc.integer({ min: 1, max: 58 }),
  });
  it('afterBattle never lowers XP or Level, its roster parses, and a JSON round trip is identical', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), windCaveSpec(), roster));
    fc.assert(
      fc.property(hps, fc.boolean(), fc.nat(50_000), (hp, restored, xp) => {
        const start = value(
          campaign.parseRoster({
            characters: Object.fromEntries(
              Object.entries(roster.characters).map(([id, s]) => [
                id,
                { ...(s as object), xp, hp: hp[id as 'hiro'] },
              ]),
            ),
            party: { hpAfterBattle: restored ? 'restored' : 'carried', levelTable: 'standard' },
          }),
        );
        const built = value(campaign.setupFrom(library(), windCaveSpec(), start));
        const encounter = value(Encounter.create(ffrpg, built, 1));
        const step = value(
          campaign.afterBattle(library(), setup, knockOutHeket(encounter), start, dice()),
        );
        for (const id of Object.keys(start.characters)) {
          expect(stateOf(step.roster, id).xp).toBeGreaterThanOrEqual(stateOf(start, id).xp);
          expect(stateOf(step.roster, id).level).toBeGreaterThanOrEqual(stateOf(start, id).level);
        }
        expect(value(campaign.parseRoster(step.roster))).toEqual(step.roster);
        expect(JSON.parse(JSON.stringify(step.roster))).toEqual(step.roster);
      }),
      { numRuns: 40, seed: 13 },
    );
  });
});
