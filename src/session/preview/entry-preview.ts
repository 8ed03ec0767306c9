import { parsePath } from '../../content/errors.js';
import { ContentLibrary } from '../../content/library.js';
import { checkAgainstSchema, validateEntity } from '../../content/validate.js';
import { SeededDice } from '../../dice/index.js';
import type { CommandBase } from '../../engine/index.js';
import type { AnySystem, CombatantView } from '../../rulesets/system.js';
import { FastDice } from '../../sim/fast-dice.js';
import { DEFAULT_POLICY, policyNamed } from '../../sim/policies.js';
import { oddsOf } from '../odds/odds-of.js';

/**
 * What the rules make of a character or monster not yet saved: the numbers an encounter gives
 * it, and the odds of what it can do to a foe on its first turn. A GM writing a sheet sees them
 * before committing it to the table's library.
 */
export interface EntryPreview {
  /** In the system's words: `Max HP 96`, `Initiative` ... */
  readonly numbers: readonly { readonly label: string; readonly value: string }[];
  /** `Attack Goblin: hit 72%, 8-14 dmg`: its actions on its first turn, with their odds. */
  readonly odds: readonly string[];
}

/** A refusal that names the field of the draft at fault, as a library write's does. */
export interface PreviewIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

export type PreviewResult =
  | { readonly ok: true; readonly value: EntryPreview }
  | {
      readonly ok: false;
      readonly code: string;
      readonly message: string;
      readonly issues: readonly PreviewIssue[];
    };

/** The encounter file's own fields; the rest is the system's spec. */
const ENCOUNTER_ENVELOPE = ['format', 'ruleset', 'name', 'description', 'content', '$schema'];

/** Commands played (by the simulator's policy) to reach the draft's first turn, at most. */
const MAX_STEPS = 200;
/** Odds lines shown, at most: a Shining Force unit's every cell is not a choice to weigh. */
const MAX_ODDS = 12;

/**
 * Previews `file` (a content file's value: format, kind, id and fields) as `library` would
 * hold it, in `encounter` (an encounter file's value, as the web's builder writes one: the
 * draft first on the first side, the foe first on the second).
 */
export function previewEntry(
  system: AnySystem,
  library: ContentLibrary,
  file: unknown,
  encounter: unknown,
  /** The most combatants the encounter may hold: each is played to the draft's turn. */
  maxCombatants = 2,
): PreviewResult {
  const checked = validateEntity({ file: 'draft', value: file, lineAt: () => undefined }, [
    ...system.kinds,
  ]);
  if (checked.entity === undefined || checked.errors.length > 0) {
    return refusal(
      'content/invalid',
      checked.errors.map((e) => ({
        path: e.path === '' ? [] : (parsePath(e.path) ?? [e.path]),
        message: e.message,
      })),
    );
  }
  const draft = checked.entity;
  const others = library
    .toJSON()
    .entries.filter((e) => !(e.entity.kind === draft.kind && e.entity.id === draft.id));
  let withDraft: ContentLibrary;
  try {
    withDraft = new ContentLibrary(library.kinds(), [...others, { file: 'draft', entity: draft }]);
  } catch (error) {
    return refusal('content/invalid', [{ path: [], message: String(error) }]);
  }
  // A missing weapon, Job or ability is named at the field that names it, as saving would.
  const missing = (system.kinds.find((k) => k.kind === draft.kind)?.references?.(draft) ?? [])
    .filter((r) => !withDraft.has(r.kind, r.id))
    .map((r) => ({
      path: parsePath(r.path) ?? [r.path],
      message: `${r.kind.slice(r.kind.indexOf('/') + 1)} '${r.id}' does not exist in this library`,
    }));
  if (missing.length > 0) return refusal('content/invalid', missing);
  if (encounter === null || typeof encounter !== 'object' || Array.isArray(encounter)) {
    return refusal('preview/invalid', [{ path: [], message: 'expected an encounter file' }]);
  }
  const spec = checkAgainstSchema(
    Object.fromEntries(Object.entries(encounter).filter(([k]) => !ENCOUNTER_ENVELOPE.includes(k))),
    system.encounterSpec,
  );
  if (!spec.ok) {
    return refusal(
      'preview/invalid',
      spec.issues.map((i) => ({ path: i.path as (string | number)[], message: i.message })),
    );
  }
  const setup = system.setupFrom(withDraft, spec.data);
  if (!setup.ok) return refusal(setup.error.code, [{ path: [], message: setup.error.message }]);
  const ruleset = system.ruleset;
  const start = ruleset.initialState(setup.value);
  const view = system.view(start);
  if (view.combatants.length > maxCombatants) {
    return refusal('preview/invalid', [
      {
        path: ['sides'],
        message: `a preview plays at most ${maxCombatants} combatants: the draft and its foe`,
      },
    ]);
  }
  const [ownSide, foeSide] = view.sides;
  const own = view.combatants.find((c) => c.side === ownSide?.id);
  const foe = view.combatants.find((c) => c.side === foeSide?.id);
  if (own === undefined) {
    return refusal('preview/invalid', [{ path: [], message: 'the encounter has no draft in it' }]);
  }
  return {
    ok: true,
    value: { numbers: numbersOf(own), odds: firstTurnOdds(system, start, own, foe) },
  };
}

function refusal(code: string, issues: readonly PreviewIssue[]): PreviewResult {
  const first = issues[0];
  const where = first === undefined || first.path.length === 0 ? '' : `${first.path.join('.')}: `;
  return {
    ok: false,
    code,
    message: first === undefined ? 'not previewed' : `${where}${first.message}`,
    issues,
  };
}

/** `sp` -> `SP`, `debt` -> `Debt`: the clock's keys as the rule texts write them. */
function clockLabel(name: string): string {
  return name.length <= 3 ? name.toUpperCase() : `${name[0]!.toUpperCase()}${name.slice(1)}`;
}

function numbersOf(c: CombatantView): EntryPreview['numbers'] {
  const numbers = [{ label: 'Max HP', value: String(c.maxHp) }];
  if (c.maxMp > 0) numbers.push({ label: 'Max MP', value: String(c.maxMp) });
  if (c.items !== undefined) numbers.push({ label: 'Items', value: String(c.items) });
  for (const s of c.stock ?? []) numbers.push({ label: s.name, value: `×${s.count}` });
  for (const [name, v] of Object.entries(c.clock)) {
    if (v !== null) numbers.push({ label: clockLabel(name), value: String(v) });
  }
  if (c.statuses.length > 0) {
    numbers.push({
      label: 'Statuses',
      value: c.statuses.map((s) => (s.timer === '' ? s.name : `${s.name} (${s.timer})`)).join(', '),
    });
  }
  return numbers;
}

/**
 * Plays from the start (the simulator's default policy choosing, seeded dice rolling) to the
 * draft's first turn, and gives the odds of what it may do then against the foe: the same odds
 * the table's legal actions list shows. None when it never gets a turn in reach.
 */
function firstTurnOdds(
  system: AnySystem,
  start: unknown,
  own: CombatantView,
  foe: CombatantView | undefined,
): string[] {
  const ruleset = system.ruleset;
  const policy = policyNamed(DEFAULT_POLICY);
  if (policy === undefined) return [];
  const dice = new FastDice(SeededDice.fromSeed('preview'));
  const choices = SeededDice.fromSeed('preview:policy');
  let state = start;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (ruleset.outcome(state).over) return [];
    const actions = ruleset.legalActions(state);
    if (actions.length === 0) return [];
    if (system.brief(state).actor === own.id) {
      const lines: string[] = [];
      for (const action of actions) {
        const odds = oddsOf(system, state, action.command as CommandBase);
        if (odds === undefined) continue;
        if (foe !== undefined && odds.target !== undefined && odds.target !== foe.id) continue;
        lines.push(`${action.label}: ${odds.summary}`);
        if (lines.length >= MAX_ODDS) break;
      }
      return lines;
    }
    const choice = policy(system, state, actions, choices);
    const decided = ruleset.decide(state, choice.command, dice);
    if (!decided.ok) return [];
    state = decided.value.reduce((s, e) => ruleset.evolve(s, e), state);
  }
  return [];
}
