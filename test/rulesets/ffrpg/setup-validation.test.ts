import { describe, expect, it } from 'vitest';
import { loadContentTexts } from '../../../src/content/index.js';
import { Encounter } from '../../../src/engine/index.js';
import { createFfrpgEncounter, ffrpg, ffrpgKinds } from '../../../src/rulesets/ffrpg/index.js';
import { windCave } from './fixtures.js';

function setupError(setup: unknown): string {
  const created = Encounter.create(ffrpg, setup, 1);
  return created.ok ? 'ok' : created.error.message;
}

describe('setups that cannot make a fair fight are refused', () => {
  it('a weapon whose Skill the wielder lacks (a typo would silently drop the CoS by the whole Skill)', () => {
    const setup = windCave();
    const hiro = setup.sides[0]!.combatants[0]!;
    const typo = {
      ...setup,
      sides: [
        {
          ...setup.sides[0]!,
          combatants: [{ ...hiro, weapon: { ...hiro.weapon!, skill: 'Gun' } }],
        },
        setup.sides[1]!,
      ],
    };
    expect(setupError(typo)).toContain(
      "Hiro's weapon uses the Skill 'Gun', which Hiro does not have (has: Awareness, Stealth, Guns)",
    );
  });

  it('two sides with one id, and two fixed events with one id', () => {
    const setup = windCave();
    expect(
      setupError({ ...setup, sides: [setup.sides[0]!, { ...setup.sides[1]!, id: 'party' }] }),
    ).toContain("side id 'party' is used twice");
    const events = [
      { id: 'ceiling', name: 'The ceiling', initiative: 10 },
      { id: 'ceiling', name: 'The floor', initiative: 5 },
    ];
    expect(setupError({ ...setup, events })).toContain("event id 'ceiling' is used twice");
  });
});

const file = (text: string) => ({
  file: 'ability.yaml',
  text: `format: 1\nkind: ffrpg/ability\nid: test\nname: Test\n${text}`,
});

describe('dice fields are checked when the content loads, not when they roll', () => {
  it('a damage code with a variable FFRPG does not give: "2*AGL + d12"', () => {
    const loaded = loadContentTexts(
      [file('type: fast\ndamage:\n  code: 2*AGL + d12\n')],
      ffrpgKinds,
    );
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(loaded.errors[0]).toMatchObject({ file: 'ability.yaml', path: 'damage.code' });
      expect(loaded.errors[0]!.message).toContain("unknown variable 'AGL'");
    }
  });

  it('a CoS formula that rolls dice ("ACC + d10")', () => {
    const loaded = loadContentTexts(
      [file('type: fast\ncos:\n  kind: formula\n  formula: ACC + d10\n')],
      ffrpgKinds,
    );
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.errors[0]!.message).toContain('a CoS formula rolls no dice');
  });

  it('the text\'s own formula "(M. ACC - 50), M. Evasion" loads', () => {
    const loaded = loadContentTexts(
      [file('type: magic\ncos:\n  kind: formula\n  formula: MACC - 50\n  guard: meva\n')],
      ffrpgKinds,
    );
    expect(loaded.ok).toBe(true);
  });
});

describe("a character's abilities come from their Job's Ability Set", () => {
  it('is refused when a character lists an ability their Job does not have', () => {
    const texts = [
      {
        file: 'cure.yaml',
        text: 'format: 1\nkind: ffrpg/ability\nid: cure\nname: Cure\ntype: magic\nheal:\n  code: 2*MAG + d8\n',
      },
      {
        file: 'gunner.yaml',
        text: 'format: 1\nkind: ffrpg/job\nid: gunner\nname: Gunner\nclass: expert\n',
      },
      {
        file: 'hiro.yaml',
        text: 'format: 1\nkind: ffrpg/character\nid: hiro\nname: Hiro\njob: gunner\nattributes: { STR: 7, VIT: 7, AGI: 10, SPD: 5, MAG: 5, SPR: 6 }\nstats: { hp: 72 }\nabilities: [cure]\n',
      },
      {
        file: 'heket.yaml',
        text: 'format: 1\nkind: ffrpg/monster\nid: heket\nname: Heket\nattributes: { STR: 10, VIT: 10, AGI: 6, SPD: 6, MAG: 6, SPR: 6 }\nstats: { hp: 200 }\n',
      },
    ];
    const loaded = loadContentTexts(texts, ffrpgKinds);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const created = createFfrpgEncounter(
      loaded.library,
      {
        sides: [
          { id: 'party', name: 'Party', party: true, combatants: [{ character: 'hiro' }] },
          { id: 'enemies', name: 'Enemies', combatants: [{ monster: 'heket' }] },
        ],
      },
      1,
    );
    expect(created).toMatchObject({ ok: false, error: { code: 'encounter/invalid' } });
    expect(created.ok ? '' : created.error.message).toContain(
      "Hiro's Job Gunner has no cure in its Ability Set",
    );
  });
});

describe('Skills on sheets are Skills the content defines', () => {
  it('a misspelt Skill ("Stelth") is refused with the Skills that exist', async () => {
    const { loadContent } = await import('../../../src/content/index.js');
    const { STARTER_CONTENT_DIR } = await import('../../../src/rulesets/ffrpg/index.js');
    const starter = loadContent(STARTER_CONTENT_DIR, ffrpgKinds);
    if (!starter.ok) throw new Error('starter content does not load');
    const entries = starter.library
      .toJSON()
      .entries.map((e) =>
        e.entity.kind === 'ffrpg/character' && e.entity.id === 'mint'
          ? { ...e, entity: { ...e.entity, skills: { Stelth: 40 } } }
          : e,
      );
    const { ContentLibrary } = await import('../../../src/content/index.js');
    const library = ContentLibrary.fromJSON({ kinds: starter.library.kinds(), entries });
    const created = createFfrpgEncounter(
      library,
      {
        sides: [
          { id: 'party', name: 'Party', party: true, combatants: [{ character: 'mint' }] },
          { id: 'enemies', name: 'Enemies', combatants: [{ monster: 'heket' }] },
        ],
      },
      1,
    );
    expect(created.ok ? '' : created.error.message).toContain(
      'Mint has Skills no ffrpg/skill defines: Stelth (defined: Awareness, Guns, Staves, Stealth, Swords)',
    );
  });
});
