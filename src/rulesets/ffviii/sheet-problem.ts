import type { CombatantSheet, FfviiiSetup } from './model.js';

/**
 * Why one combatant's sheet cannot fight in this setup: spells, items, Guardian Forces or powers
 * it names that the setup lacks, or more HP at the start than its maximum.
 */
export function sheetProblem(setup: FfviiiSetup, c: CombatantSheet): string | undefined {
  const missing = (what: string, ids: Iterable<string>, known: Record<string, unknown>) => {
    for (const x of ids) if (!Object.hasOwn(known, x)) return `${c.id}: no ${what} '${x}'`;
    return undefined;
  };
  if (c.startHp !== undefined && c.startHp > c.hp)
    return `${c.id}: starts with ${c.startHp} HP, above its maximum of ${c.hp}`;
  return (
    missing('spell', Object.keys(c.spellMatrix), setup.spells) ??
    missing('spell', c.spellshards, setup.spells) ??
    missing('item', Object.keys(c.items), setup.items) ??
    missing(
      'Guardian Force',
      c.guardianForces.map((g) => g.gf),
      setup.guardianForces,
    ) ??
    missing('power', c.powers, setup.powers)
  );
}
