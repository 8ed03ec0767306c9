import type { ContentLibrary } from '../../content/index.js';
import type { gm } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import { addableOf } from './command-from.js';

/** What the examples are drawn from: the fight in front of the GM, and the system's words. */
export interface GmExampleInput {
  readonly combatants: readonly {
    readonly id: string;
    readonly name: string;
    readonly side: string;
    readonly out: boolean;
    readonly maxHp: number;
    readonly maxMp: number;
    readonly statuses: readonly { readonly name: string }[];
  }[];
  readonly sides: readonly gm.RosterEntry[];
  /** The statuses a line may name; none where they are free words. */
  readonly statuses: readonly gm.RosterEntry[];
  /** The sheets `gm add` may bring in. */
  readonly addable: readonly gm.RosterEntry[];
  readonly vocabulary: Pick<gm.GmVocabulary, 'mp' | 'resources' | 'elements'>;
}

type Combatant = GmExampleInput['combatants'][number];

/**
 * GM lines (without the leading `gm`) a GM could type now, each naming this fight's own
 * combatants, sides, statuses and content, most used first: what the GM screen shows as its
 * placeholder and examples, and `help gm` lists. Names are written as a person reads them; a
 * name the parser could misread (one with a number for a word) is written as its id.
 */
export function composeGmExamples(input: GmExampleInput): string[] {
  const standing = input.combatants.filter((c) => !c.out);
  const pool = standing.length > 0 ? standing : input.combatants;
  const first = pool[0];
  if (first === undefined) return [];
  const friend = first;
  const foe = pool.find((c) => c.side !== friend.side) ?? friend;
  const lines: string[] = [];
  const hp = Math.max(1, Math.floor(foe.maxHp / 2));
  lines.push(`hp ${typed(foe)} ${hp}`);
  lines.push(
    `damage ${typed(foe)} 2d6${input.vocabulary.elements[0] ? ` ${input.vocabulary.elements[0]}` : ''}`,
  );
  const status = statusToInflict(input.statuses, friend);
  lines.push(`status ${typed(friend)} +${status} 3`);
  const worn = pool.find((c) => c.statuses.length > 0);
  if (worn !== undefined)
    lines.push(`status ${typed(worn)} -${statusWord(worn.statuses[0]!.name)}`);
  if (input.vocabulary.mp && friend.maxMp > 0) lines.push(`mp ${typed(friend)} +5`);
  const resource = input.vocabulary.resources.find((r) => r.key === undefined && !r.flag);
  if (resource !== undefined) lines.push(`${resource.name} ${typed(friend)} +1`);
  lines.push(`heal ${typed(friend)} 10`);
  const side = input.sides.find((s) => s.id === foe.side) ?? input.sides[0];
  const sheet =
    input.addable.find((a) => a.name.toLowerCase() === foe.name.toLowerCase() || a.id === foe.id) ??
    input.addable.at(-1);
  if (side !== undefined && sheet !== undefined)
    lines.push(
      `add ${plain(sheet.name) ? sheet.name : sheet.id} to ${plain(side.name) ? side.name : side.id}`,
    );
  lines.push(`note ${typed(foe)} behind the pillar`);
  lines.push(`remove ${typed(foe)} fled`);
  return lines;
}

/** A name is typed as it reads unless a word of it is a number (`Goblin 2`) or it has a quote. */
function plain(name: string): boolean {
  return !/"/.test(name) && !name.split(/\s+/).some((w) => /^[+-]?\d/.test(w) || /%$/.test(w));
}

function typed(c: Combatant): string {
  return plain(c.name) ? c.name : c.id;
}

function statusWord(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
}

/** Poison where the fight knows it (every system's first example), else the first it lists. */
function statusToInflict(statuses: readonly gm.RosterEntry[], on: Combatant): string {
  const has = new Set(on.statuses.map((s) => statusWord(s.name)));
  const free = statuses.filter((s) => !has.has(s.id));
  const chosen = free.find((s) => s.id === 'poison') ?? free[0];
  return chosen === undefined ? 'poison' : statusWord(chosen.name);
}

/** The examples for this encounter now, from its view, its statuses and its content. */
export function gmExamplesOf(
  system: AnySystem,
  library: ContentLibrary | undefined,
  state: unknown,
): string[] {
  const view = system.view(state);
  return composeGmExamples({
    combatants: view.combatants,
    sides: view.sides,
    statuses: system.gmStatuses?.(state) ?? [],
    addable: library === undefined ? [] : addableOf(system, library),
    vocabulary: system.gm,
  });
}
