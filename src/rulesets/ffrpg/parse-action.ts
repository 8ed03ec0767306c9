import { gm } from '../../engine/index.js';
import type { FfrpgCommand } from './commands.js';
import { ATTRIBUTES, type Attribute } from './model.js';
import { currentActor, type FfrpgState } from './state.js';

const ATTRIBUTE_NAMES: Readonly<Record<string, Attribute>> = {
  strength: 'STR',
  vitality: 'VIT',
  agility: 'AGI',
  speed: 'SPD',
  magic: 'MAG',
  spirit: 'SPR',
};

/**
 * Task Checks typed at the table, with any Conditional Modifier (a number or a Table 1-1
 * difficulty):
 * - `check hiro awareness hard`, `check hiro agi -20`: a check the GM calls for; it takes
 *   nobody's turn (docs/rulings.md);
 * - `check hiro stealth +40 vs heket awareness -20`: an Opposed Task Check, any number of sides;
 * - `task check stealth easy`: the check as the acting combatant's Action on its turn.
 * Words that name nothing (an unknown Skill, a typo in the difficulty) are passed on, so the
 * rules answer with what is known rather than the terminal with "unknown command".
 */
export function parseFfrpgAction(state: FfrpgState, text: string): FfrpgCommand | undefined {
  const words = text.trim().split(/\s+/);
  const verb = words[0]?.toLowerCase();
  if (verb === 'task' && words[1]?.toLowerCase() === 'check') {
    const actor = currentActor(state);
    if (actor === undefined || words.length < 3 || words.length > 4) return undefined;
    return {
      type: 'task-check',
      actor: actor.id,
      ...rating(state, actor.id, words[2]!),
      modifier: modifierOf(words[3]),
      impossible: false,
      called: false,
    };
  }
  if (verb !== 'check') return undefined;
  const parts: string[][] = [[]];
  for (const word of words.slice(1)) {
    if (word.toLowerCase() === 'vs' || word.toLowerCase() === 'versus') parts.push([]);
    else parts.at(-1)!.push(word);
  }
  const named = parts.map((p) => whoThen(state, p));
  if (named.some(({ rest }) => rest.length < 1 || rest.length > 2)) return undefined;
  const participants = named.map(({ actor, rest }) => ({
    actor,
    ...rating(state, actor, rest[0]!),
    modifier: modifierOf(rest[1]),
  }));
  if (participants.length === 1)
    return { type: 'task-check', ...participants[0]!, impossible: false, called: true };
  return { type: 'opposed-check', participants };
}

/**
 * The combatant the first words name and the words after: the longest run of words that is
 * exactly someone's id or name (`check iron giant awareness`), else the first word alone.
 */
function whoThen(state: FfrpgState, words: readonly string[]): { actor: string; rest: string[] } {
  const roster = state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name }));
  for (let used = words.length - 1; used >= 2; used--) {
    const exact = gm.namesExactly(roster, words.slice(0, used).join(' '));
    if (exact !== undefined) return { actor: exact, rest: words.slice(used) };
  }
  const word = words[0] ?? '';
  const found = gm.findCombatant(roster, word);
  return { actor: found.ok ? found.value : word, rest: words.slice(1) };
}

/** A Skill of the combatant's (any case, or the one it starts), else an Attribute. */
function rating(
  state: FfrpgState,
  actor: string,
  word: string,
): { skill: string } | { attribute: Attribute } {
  const lower = word.toLowerCase();
  const attribute =
    (ATTRIBUTES as readonly string[]).find((a) => a.toLowerCase() === lower) ??
    (Object.hasOwn(ATTRIBUTE_NAMES, lower) ? ATTRIBUTE_NAMES[lower] : undefined);
  if (attribute !== undefined) return { attribute: attribute as Attribute };
  const skills = Object.hasOwn(state.combatants, actor)
    ? Object.keys(state.combatants[actor]!.sheet.skills)
    : [];
  const exact = skills.find((s) => s.toLowerCase() === lower);
  if (exact !== undefined) return { skill: exact };
  const starts = skills.filter((s) => s.toLowerCase().startsWith(lower));
  return { skill: starts.length === 1 ? starts[0]! : word };
}

/**
 * Table 1-1 has no "hard" or "normal", but a table says them: read as Challenging (-20) and
 * Problematic (+0), the rows a GM means by them (docs/rulings.md).
 */
const SPOKEN: Readonly<Record<string, number>> = { hard: -20, normal: 0 };

function modifierOf(word: string | undefined): number | string {
  if (word === undefined) return 0;
  const lower = word.toLowerCase();
  if (Object.hasOwn(SPOKEN, lower)) return SPOKEN[lower]!;
  return /^[+-]?\d{1,3}$/.test(word) ? Number(word) : word;
}
