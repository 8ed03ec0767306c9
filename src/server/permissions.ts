import type { CommandBase, EngineError, LegalAction } from '../engine/index.js';
import type { RollSlot } from '../rulesets/system.js';
import type { Role, SubmitAction } from './protocol.js';

/**
 * Who may do what in an encounter. The GM may do anything the engine accepts; a spectator
 * nothing; a player only what the rules offer its own character right now (its turn, or an
 * off-turn answer addressed to it), with dice entered only for its own rolls. The rules decide
 * what is legal; this only asks them.
 */

export type Refusal = Pick<EngineError, 'code' | 'message' | 'purpose'>;

/**
 * Whether `purpose` is `characterId`'s to enter among `slots`, the rolls its command may ask
 * for: only a roll the rules give its own character (its hit, damage, check, spell), never
 * one they give another combatant or the table, nor one the command does not make. A repeat's
 * `#n` is matched by its base, as the engine numbers it.
 */
export function isOwnRoll(
  purpose: string,
  slots: readonly RollSlot[],
  characterId: string,
): boolean {
  const base = purpose.replace(/#\d+$/, '');
  return slots.find((s) => s.purpose === base)?.roller === characterId;
}

/** Keys sorted at every level, so two equal commands compare equal as text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

export function actorOf(command: CommandBase): string | undefined {
  const actor = (command as { actor?: unknown }).actor;
  return typeof actor === 'string' ? actor : undefined;
}

/** The legal actions a client is offered: all of them for the GM, its own for a player. */
export function offeredTo(
  role: Role,
  legal: readonly LegalAction<CommandBase>[],
): readonly LegalAction<CommandBase>[] {
  if (role.role === 'gm') return legal;
  if (role.role === 'spectator') return [];
  return legal.filter((a) => actorOf(a.command) === role.characterId);
}

/**
 * Checks a submit against the client's role, before the engine sees it. `command` is the
 * ruleset's parse of the client's command (undefined for undo, redo and GM lines); `rolls` the
 * system's rolls of a command now (`GameSystem.rolls`), asked only of a player's offered one.
 */
export function checkSubmit(
  legal: readonly LegalAction<CommandBase>[],
  role: Role,
  action: SubmitAction,
  command: CommandBase | undefined,
  dice: Readonly<Record<string, unknown>> | undefined,
  rolls: (command: CommandBase) => readonly RollSlot[],
): Refusal | undefined {
  if (role.role === 'gm') return undefined;
  if (role.role === 'spectator') {
    return { code: 'role/spectator', message: 'a spectator watches: it cannot submit anything' };
  }
  if (action.kind !== 'command' || command === undefined) {
    return {
      code: 'role/gm-only',
      message: `only the GM may ${action.kind === 'gm' ? 'give GM commands' : action.kind}`,
    };
  }
  const me = role.characterId;
  if (actorOf(command) !== me) {
    return {
      code: 'role/not-your-character',
      message: `you play ${me}: a command must have ${me} as its actor`,
    };
  }
  const mine = legal.filter((a) => actorOf(a.command) === me);
  if (mine.length === 0) {
    return { code: 'role/not-your-turn', message: `${me} cannot act now: it is not its turn` };
  }
  const text = canonical(command);
  if (!mine.some((a) => canonical(a.command) === text)) {
    return {
      code: 'role/not-offered',
      message: `the rules do not offer ${me} that now; its choices: ${mine.map((a) => a.label).join('; ')}`,
    };
  }
  const entered = Object.keys(dice ?? {});
  if (entered.length === 0) return undefined;
  const slots = rolls(command);
  for (const purpose of entered) {
    if (!isOwnRoll(purpose, slots, me)) {
      const yours = slots.filter((s) => s.roller === me).map((s) => s.purpose);
      return {
        code: 'role/not-your-roll',
        purpose,
        message: `'${purpose}' is not ${me}'s roll to enter: the GM enters it, or it is rolled; ${me}'s rolls here: ${yours.length === 0 ? 'none' : yours.join(', ')}`,
      };
    }
  }
  return undefined;
}
