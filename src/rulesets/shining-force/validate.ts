import { err, ok, type Result } from '../../engine/index.js';
import { cellIndex } from './evolve.js';
import { terrainOf } from './field.js';
import type { ShiningForceSetup } from './model.js';

/**
 * What the schema cannot say about a setup: unique ids, everyone on a passable cell of their
 * own, every item, spell and pattern known, and the six item slots ("One of these slots is for
 * an equipped weapon only, and another for an equipped accessory only").
 */
export function checkSetup(setup: ShiningForceSetup): Result<ShiningForceSetup> {
  const ids = new Set<string>();
  const cells = new Map<number, string>();
  const terrain = terrainOf(setup);
  const pattern = (id: string, where: string): Result<true> =>
    setup.patterns[id] === undefined
      ? err('setup/invalid', `${where}: there is no pattern '${id}'`)
      : ok(true);
  for (const [id, spell] of Object.entries(setup.spells)) {
    for (const p of [spell.range, spell.area]) {
      const found = pattern(p, `spell ${id}`);
      if (!found.ok) return found;
    }
  }
  for (const [id, item] of Object.entries(setup.items)) {
    for (const p of [item.range, item.use?.range, item.use?.area]) {
      if (p === undefined) continue;
      const found = pattern(p, `item ${id}`);
      if (!found.ok) return found;
    }
  }
  for (const side of setup.sides) {
    for (const c of side.combatants) {
      const where = `${side.id}: ${c.name}`;
      if (ids.has(c.id))
        return err('setup/invalid', `two combatants are called '${c.id}': give one an id`);
      ids.add(c.id);
      const cell = cellIndex(setup, c.at);
      if (cell < 0) return err('setup/invalid', `${where} stands at ${c.at}, off the battlefield`);
      if ((terrain.costs[cell] ?? 0) <= 0)
        return err('setup/invalid', `${where} stands at ${c.at}, which is impassable`);
      const other = cells.get(cell);
      if (other !== undefined)
        return err('setup/invalid', `${where} and ${other} both stand at ${c.at}`);
      cells.set(cell, c.name);
      for (const s of c.spells)
        if (setup.spells[s] === undefined)
          return err('setup/invalid', `${where} knows no spell '${s}'`);
      if (c.attack !== undefined) {
        const found = pattern(c.attack.range, where);
        if (!found.ok) return found;
      }
      let weapons = 0;
      let accessories = 0;
      let bag = 0;
      for (const held of c.items) {
        const item = setup.items[held.item];
        if (item === undefined)
          return err('setup/invalid', `${where} carries an unknown item '${held.item}'`);
        if (!held.equipped) bag++;
        else if (item.type === 'weapon') weapons++;
        else if (item.type === 'accessory') accessories++;
        else
          return err(
            'setup/invalid',
            `${where}: ${item.name} is not a weapon or accessory to equip`,
          );
      }
      if (weapons > 1 || accessories > 1)
        return err('setup/invalid', `${where} equips more than one weapon or accessory`);
      if (bag > 4)
        return err(
          'setup/invalid',
          `${where} carries ${bag} items besides the equipped ones; 4 fit`,
        );
    }
  }
  return ok(setup);
}
