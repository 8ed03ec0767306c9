import { z } from 'zod';
import type { ContentLibrary } from '../../../content/index.js';
import { type DiceRoller, describeIssue, err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignService, CampaignStep } from '../../campaign.js';
import { withArticle } from '../../grammar.js';
import { ACTION_DICE, actionCheck, readActionDice, WILLING_DIFFICULTY } from '../action-dice.js';
import { ffviiiNewcomer, itemKind, spellKind, weaponKind } from '../content.js';
import { type CombatantSheet, idSchema } from '../model.js';
import { actionValue } from '../state.js';
import { type CharacterState, type FfviiiRoster, readRoster, toCampaignRoster } from './roster.js';

/**
 * What an FFVIII party does between fights. The text has no rest rule and no shops (the Health
 * chapter it points to is missing), so these are the actions it gives, taken out of a fight,
 * and a rest (docs/rulings.md):
 *
 * - `use-item`: "To use an item, such as a healing potion ... Potions and other 'normal' items
 *   can be used automaticaly": a healing item on a willing character.
 * - `cast`: a healing spell from the Spell Matrix: "If the target is willing ... the caster
 *   simply needs to get any positive result, after rolling. Even a 1 succeeds."
 * - `reload`: every gun of a character back to full; out of a fight its shots cost nothing.
 *   Rounds kept for a gun the character's sheet no longer names are put away.
 * - `rest`: HP back to full, the fallen on their feet again.
 */
export const serviceSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('rest'),
    /** Who rests; absent: every character on the roster. */
    characters: z.array(idSchema).min(1).optional(),
  }),
  z.strictObject({
    type: z.literal('use-item'),
    character: idSchema,
    item: idSchema,
    /** On whom; absent: the character using it. */
    target: idSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('cast'),
    character: idSchema,
    spell: idSchema,
    target: idSchema.optional(),
  }),
  z.strictObject({ type: z.literal('reload'), character: idSchema }),
]);
export type FfviiiService = z.infer<typeof serviceSchema>;
export type FfviiiServiceInput = z.input<typeof serviceSchema>;

export function applyService(
  library: ContentLibrary,
  rosterInput: CampaignRoster,
  input: CampaignService,
  dice: DiceRoller,
): Result<CampaignStep> {
  const parsed = serviceSchema.safeParse(input);
  if (!parsed.success)
    return err('campaign/invalid-service', `not an FFVIII service: ${describeIssue(parsed.error)}`);
  const read = readRoster(rosterInput);
  if (!read.ok) return read;
  const roster = read.value;
  const service = parsed.data;
  const named =
    service.type === 'rest'
      ? (service.characters ?? Object.keys(roster.characters))
      : [
          service.character,
          ...('target' in service && service.target !== undefined ? [service.target] : []),
        ];
  if (named.length === 0) return err('campaign/not-on-roster', 'the roster has nobody');
  const sheets: Record<string, CombatantSheet> = {};
  for (const id of named) {
    if (roster.characters[id] === undefined)
      return err('campaign/not-on-roster', `'${id}' is not on the roster`);
    const sheet = ffviiiNewcomer(library, id);
    if (!sheet.ok) return sheet;
    sheets[id] = sheet.value;
  }
  switch (service.type) {
    case 'rest':
      return rest(roster, named, sheets);
    case 'use-item':
      return useItem(library, roster, sheets, service.character, service.item, service.target);
    case 'cast':
      return cast(library, roster, sheets, service, dice);
    case 'reload':
      return reload(library, roster, sheets[service.character]!);
  }
}

function step(roster: FfviiiRoster, changed: Record<string, CharacterState>, report: string[]) {
  return ok({
    roster: toCampaignRoster({
      characters: { ...roster.characters, ...changed },
      party: roster.party,
    }),
    report,
  });
}

function rest(
  roster: FfviiiRoster,
  named: readonly string[],
  sheets: Record<string, CombatantSheet>,
): Result<CampaignStep> {
  const changed: Record<string, CharacterState> = {};
  const report: string[] = [];
  for (const id of named) {
    const c = roster.characters[id]!;
    const sheet = sheets[id]!;
    if (c.hp >= sheet.hp) continue;
    changed[id] = { ...c, hp: sheet.hp };
    report.push(
      `${sheet.name} rests${c.hp === 0 ? ' and is back on their feet' : ''}: ${sheet.hp}/${sheet.hp} HP.`,
    );
  }
  if (report.length === 0)
    return err('campaign/nothing-to-do', 'everyone named is at full HP already');
  return step(roster, changed, report);
}

/** Why healing cannot reach a character between fights, if it cannot. */
function cannotHeal(c: CharacterState, sheet: CombatantSheet): string | undefined {
  if (c.hp === 0)
    return `${sheet.name} has fallen: healing does not reach the fallen between fights; rest first`;
  if (c.hp >= sheet.hp) return `${sheet.name} is at full HP already`;
  return undefined;
}

function useItem(
  library: ContentLibrary,
  roster: FfviiiRoster,
  sheets: Record<string, CombatantSheet>,
  userId: string,
  itemId: string,
  targetId = userId,
): Result<CampaignStep> {
  const user = roster.characters[userId]!;
  const sheet = sheets[userId]!;
  const item = library.get(itemKind, itemId);
  if (item === undefined || (user.items[itemId] ?? 0) < 1)
    return err('campaign/no-such-item', `${sheet.name} has no ${item?.name ?? `'${itemId}'`}`);
  if (item.effect.kind !== 'heal' || !item.willing)
    return err(
      'campaign/not-now',
      `${item.name} is used on an unwilling target, and there is none between fights`,
    );
  const target = roster.characters[targetId]!;
  const targetSheet = sheets[targetId]!;
  const why = cannotHeal(target, targetSheet);
  if (why !== undefined) return err('campaign/cannot-heal', why);
  const hp = Math.min(targetSheet.hp, target.hp + item.effect.amount);
  const items = { ...user.items, [itemId]: user.items[itemId]! - 1 };
  const changed: Record<string, CharacterState> = { [userId]: { ...user, items } };
  changed[targetId] = { ...(changed[targetId] ?? target), hp };
  return step(roster, changed, [
    `${sheet.name} uses ${withArticle(item.name)}${targetId === userId ? '' : ` on ${targetSheet.name}`}: ${targetSheet.name} heals ${hp - target.hp} HP (${hp}/${targetSheet.hp}); ${items[itemId]} left.`,
  ]);
}

function cast(
  library: ContentLibrary,
  roster: FfviiiRoster,
  sheets: Record<string, CombatantSheet>,
  service: Extract<FfviiiService, { type: 'cast' }>,
  dice: DiceRoller,
): Result<CampaignStep> {
  const casterId = service.character;
  const targetId = service.target ?? casterId;
  const caster = roster.characters[casterId]!;
  const sheet = sheets[casterId]!;
  const spell = library.get(spellKind, service.spell);
  if (spell === undefined || (caster.spellMatrix[service.spell] ?? 0) < 1)
    return err(
      'campaign/no-such-spell',
      `${sheet.name} has no ${spell?.name ?? `'${service.spell}'`} in stock`,
    );
  if (spell.effect !== 'heal' || !spell.willing)
    return err(
      'campaign/not-now',
      `${spell.name} is cast on an unwilling target, and there is none between fights`,
    );
  if (caster.hp === 0)
    return err('campaign/cannot-act', `${sheet.name} has fallen and cannot cast`);
  const target = roster.characters[targetId]!;
  const targetSheet = sheets[targetId]!;
  const why = cannotHeal(target, targetSheet);
  if (why !== undefined) return err('campaign/cannot-heal', why);
  const av = actionValue(sheet, 'sorcery');
  const roll = dice.roll(`cast:${targetId}`, ACTION_DICE, {}, { readsFaces: true });
  const check = actionCheck(av, WILLING_DIFFICULTY, roll.total, readActionDice(roll.dice).boxcars);
  const spellMatrix = {
    ...caster.spellMatrix,
    [service.spell]: caster.spellMatrix[service.spell]! - 1,
  };
  const changed: Record<string, CharacterState> = { [casterId]: { ...caster, spellMatrix } };
  const rolled = `Sorcery ${av} ${roll.total < 0 ? '-' : '+'} ${Math.abs(roll.total)} = ${check.result} against ${WILLING_DIFFICULTY}`;
  if (!check.success)
    return step(roster, changed, [
      `${sheet.name} casts ${spell.name} (${rolled}): it ${check.criticalFailure ? 'fizzles unpleasantly' : 'fails'}; ${spellMatrix[service.spell]} left.`,
    ]);
  const hp = Math.min(targetSheet.hp, target.hp + av + spell.power);
  changed[targetId] = { ...(changed[targetId] ?? target), hp };
  return step(roster, changed, [
    `${sheet.name} casts ${spell.name} on ${targetSheet.name} (${rolled}): heals ${hp - target.hp} HP (${hp}/${targetSheet.hp}); ${spellMatrix[service.spell]} left.`,
  ]);
}

function reload(
  library: ContentLibrary,
  roster: FfviiiRoster,
  sheet: CombatantSheet,
): Result<CampaignStep> {
  const c = roster.characters[sheet.id]!;
  const ammo = { ...c.ammo };
  const report: string[] = [];
  for (const w of sheet.weapons) {
    if (w.gun === undefined || (c.ammo[w.id] ?? w.gun.capacity) >= w.gun.capacity) continue;
    ammo[w.id] = w.gun.capacity;
    report.push(`${sheet.name} reloads the ${w.name}: ${w.gun.capacity} rounds.`);
  }
  // Rounds kept for a gun the sheet no longer names are put away with it: nothing fires them,
  // and the library keeps a gun whose rounds a character holds.
  for (const id of Object.keys(c.ammo)) {
    if (sheet.weapons.some((w) => w.id === id && w.gun !== undefined)) continue;
    delete ammo[id];
    const name = library.get(weaponKind, id)?.name ?? id;
    report.push(`${sheet.name} no longer carries the ${name}: its rounds are put away.`);
  }
  if (report.length === 0)
    return err(
      'campaign/nothing-to-do',
      sheet.weapons.some((w) => w.gun !== undefined)
        ? `${sheet.name}'s guns are full`
        : `${sheet.name} carries no gun`,
    );
  return step(roster, { [sheet.id]: { ...c, ammo } }, report);
}
