/**
 * A draft sheet previewed as the rules make it: its numbers in an encounter, and the odds of its
 * first turn against a foe, for every system, before anything is saved.
 */
import { describe, expect, it } from 'vitest';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { starterLibrary } from '../../src/server/tables.js';
import { previewEntry } from '../../src/session/preview/entry-preview.js';
import { duelEncounter } from '../../web/src/library/duel.js';

function withHp(
  system: string,
  file: Record<string, unknown>,
  hp: number,
): Record<string, unknown> {
  // FFVIII writes HP at the top of a sheet; the others under its stats.
  if (system === 'ffviii') return { ...file, hp };
  return { ...file, stats: { ...(file.stats as object), hp } };
}

describe('previewing a draft character', () => {
  for (const system of SYSTEMS) {
    const id = system.ruleset.id;
    it(`${system.ruleset.name}: the preview's Max HP is the draft's, and its first turn has odds against the foe`, () => {
      const library = starterLibrary(system);
      if (!library.ok) throw new Error(library.error.message);
      const lib = library.value;
      const hero = lib.all(`${id}/character`)[0]!;
      const monster = lib.all(`${id}/monster`)[0]!;
      const draft = withHp(id, { ...hero, id: 'new-hero' }, 77);
      const encounter = duelEncounter(
        id,
        { sheet: 'character', id: 'new-hero', name: 'New hero' },
        { sheet: 'monster', id: monster.id, name: String((monster as { name?: unknown }).name) },
      );
      const preview = previewEntry(system, lib, draft, encounter);
      if (!preview.ok) throw new Error(preview.message);
      expect(preview.value.numbers).toContainEqual({ label: 'Max HP', value: '77' });
      expect(preview.value.odds.length).toBeGreaterThan(0);
      // Nothing of the draft reached the library it was previewed over.
      expect(lib.has(`${id}/character`, 'new-hero')).toBe(false);
    });

    it(`${system.ruleset.name}: a draft naming a missing weapon or with a bad field is refused at that field`, () => {
      const library = starterLibrary(system);
      if (!library.ok) throw new Error(library.error.message);
      const lib = library.value;
      const hero = lib.all(`${id}/character`)[0]!;
      const monster = lib.all(`${id}/monster`)[0]!;
      const encounter = duelEncounter(
        id,
        { sheet: 'character', id: hero.id, name: 'Hero' },
        { sheet: 'monster', id: monster.id, name: 'Foe' },
      );
      const broken = withHp(id, { ...hero }, -5);
      const preview = previewEntry(system, lib, broken, encounter);
      expect(preview.ok).toBe(false);
      if (preview.ok) return;
      const hpPath = id === 'ffviii' ? ['hp'] : ['stats', 'hp'];
      expect(preview.issues.map((i) => i.path)).toContainEqual(hpPath);
    });
  }
});
