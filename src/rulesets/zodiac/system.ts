import { err, gm, ok, type Result } from '../../engine/index.js';
import { stockOf } from '../stock.js';
import type { EncounterView, GameSystem } from '../system.js';
import { zodiacCampaign } from './campaign/index.js';
import type { ZodiacCommand } from './commands.js';
import {
  type EncounterSpec,
  encounterSpecSchema,
  STARTER_CONTENT_DIR,
  zodiacKinds,
  zodiacNewcomer,
  zodiacSetupFrom,
} from './content.js';
import { describeEvents } from './describe.js';
import { ELEMENTS } from './elements.js';
import type { ZodiacEvent } from './events.js';
import type { ZodiacSetup } from './model.js';
import { zodiacOdds } from './odds.js';
import { zodiacOrderRolls, zodiacRolls } from './rolls.js';
import { zodiac } from './ruleset.js';
import { currentEntry, effectiveSpeed, isFighting, type ZodiacState } from './state.js';
import { STATUS_IDS, STATUSES } from './statuses.js';

/**
 * The round, the tick, and everyone's Speed Points: the tick's turns in order (the current one
 * marked, simultaneous ones joined by `=`), then those who wait for the next round.
 */
function view(state: ZodiacState): EncounterView {
  const entry = currentEntry(state);
  const timing =
    state.phase === 'ended'
      ? `Over in round ${state.round}, tick ${state.tick}`
      : state.phase === 'start'
        ? 'Before round 1: everyone will gain Speed + 1d8 SP'
        : `Round ${state.round}, tick ${state.tick}`;
  const order: string[] = [];
  const listed = new Set<string>();
  const line = (mark: string, id: string, note: string): string => {
    const c = state.combatants[id]!;
    return `${mark} ${c.sheet.name}: SP ${c.sp}, Speed ${effectiveSpeed(c)}${note}`;
  };
  state.queue.forEach((e, i) => {
    listed.add(e.id);
    const mark = i === state.cursor ? '>' : ' ';
    const together =
      state.queue[i - 1]?.group === e.group || state.queue[i + 1]?.group === e.group
        ? ' (simultaneous)'
        : '';
    const done = i < state.cursor ? ' (done this tick)' : '';
    order.push(line(mark, e.id, `${together}${done}`));
  });
  for (const id of state.order)
    if (!listed.has(id) && state.phase !== 'start' && state.combatants[id]!.gone === null)
      order.push(line(' ', id, ' (no turn this tick)'));
  return {
    timing,
    order,
    actor: entry?.id ?? null,
    clock: {
      phase: state.phase,
      round: state.round,
      tick: state.phase === 'start' ? null : state.tick,
      actor: entry?.id ?? null,
    },
    sides: state.setup.sides.map((s) => ({ id: s.id, name: s.name })),
    combatants: state.order.map((id) => {
      const c = state.combatants[id]!;
      const statuses: { id?: string; name: string; timer: string }[] = c.statuses.map((s) => ({
        id: s.status,
        name: STATUSES[s.status].name,
        timer:
          s.ticks !== null
            ? `${s.ticks} ${s.ticks === 1 ? 'tick' : 'ticks'}`
            : s.untilRound !== null
              ? `end of round ${s.untilRound}`
              : STATUSES[s.status].duration === 'permanent'
                ? 'Permanent'
                : 'battle',
      }));
      if (c.unconscious)
        statuses.unshift(
          c.dead
            ? { name: 'Dead', timer: 'Permanent' }
            : { id: 'unconscious', name: 'Unconscious', timer: 'Permanent' },
        );
      if (c.gone !== null)
        statuses.unshift({ name: c.gone === 'fled' ? 'Fled' : 'Dismissed', timer: 'Permanent' });
      if (c.defending)
        statuses.push({
          name: 'Defending',
          timer: state.setup.options.defendLasts === 'rest-of-round' ? 'round' : 'turn',
        });
      if (state.skips.includes(id)) statuses.push({ name: 'Skips next turn', timer: 'turn' });
      return {
        id,
        name: c.sheet.name,
        side: c.side,
        hp: c.hp,
        maxHp: c.maxHp,
        mp: c.mp,
        maxMp: c.sheet.stats.mp,
        out: !isFighting(c),
        fled: c.gone === 'fled',
        items: stockOf(c.items),
        statuses,
        notes: gm.notesOf(state.notes, id),
        clock: { sp: c.sp, speed: effectiveSpeed(c), ...tickOf(state, id) },
      };
    }),
  };
}

/**
 * Where a combatant stands in the tick under way, for screens that tick off who has acted:
 * `acted`, `acting` or `to act`; nothing when it has no turn this tick (or no tick is running).
 */
function tickOf(state: ZodiacState, id: string): { tick?: string } {
  if (state.phase !== 'ticks') return {};
  const at = state.queue.findIndex((e) => e.id === id);
  if (at < 0) return {};
  return { tick: at < state.cursor ? 'acted' : at === state.cursor ? 'acting' : 'to act' };
}

/** `gm death <who>`: ZODIAC's own GM command, typed with or without the leading `gm`. */
function parseGm(state: ZodiacState, line: string): Result<ZodiacCommand> | undefined {
  const words = gm.tokenize(line);
  if (!words.ok) return undefined;
  const rest = words.value[0]?.toLowerCase() === 'gm' ? words.value.slice(1) : words.value;
  if (rest[0]?.toLowerCase() !== 'death') return undefined;
  if (rest.length < 2) return err('gm/usage', 'gm death <who>');
  const roster = state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name }));
  const target = gm.findCombatant(roster, rest.slice(1).join(' '));
  return target.ok ? ok({ type: 'gm-death', target: target.value }) : target;
}

const GM_VOCABULARY: gm.GmVocabulary = {
  resources: [
    { name: 'sp', help: 'set or change Speed Points (the same as gm clock)' },
    { name: 'item', key: 'item', help: 'set or change the Potions of a kind carried' },
  ],
  clock: 'Speed Points (SP)',
  mp: true,
  elements: [...ELEMENTS],
  examples: [
    'gm hp ogre -100',
    'gm mp keef 20',
    'gm sp keef +8',
    'gm item keef potion 3',
    'gm status ogre +poison 4',
    'gm status ogre -poison',
    'gm add ogre to monsters as Ogre 2',
    'gm remove ogre fled',
    'gm clock ogre 20',
    'gm skip ogre',
    'gm damage ogre 2d8*10 fire',
    'gm heal keef 50',
    'gm note ogre behind the pillar',
    'gm death ogre',
  ],
  extra: ['gm death <who>                         "Death is permanent": beyond any Phoenix Down'],
};

/** ZODIAC for the tools: encounter files, views, event descriptions, statistics. */
export const zodiacSystem: GameSystem<
  ZodiacSetup,
  ZodiacState,
  ZodiacCommand,
  ZodiacEvent,
  EncounterSpec
> = {
  ruleset: zodiac,
  kinds: zodiacKinds,
  starterContent: STARTER_CONTENT_DIR,
  encounterSpec: encounterSpecSchema,
  setupFrom: zodiacSetupFrom,
  view,
  brief(state) {
    const entry = currentEntry(state);
    return {
      actor: entry?.id ?? null,
      combatants: state.order.map((id) => {
        const c = state.combatants[id]!;
        return { id, side: c.side, hp: c.hp, out: !isFighting(c) };
      }),
    };
  },
  describe: describeEvents,
  damageOf(event) {
    if (event.type !== 'damage-dealt' || event.absorbed || event.source === null) return undefined;
    return { source: event.source, target: event.target, amount: event.amount };
  },
  rounds: (state) => state.round,
  odds: zodiacOdds,
  rolls: zodiacRolls,
  orderRolls: zodiacOrderRolls,
  gm: GM_VOCABULARY,
  gmMenu: () => ({
    statuses: STATUS_IDS.map((id) => {
      const info = STATUSES[id];
      if (id === 'stun' || id === 'unconscious')
        return { id, name: info.name, timer: 'none' as const, usual: null };
      // Death Sentence counts rounds: "until the end of the next combat round" unless told.
      if (id === 'death-sentence')
        return { id, name: info.name, timer: 'optional' as const, usual: 1, unit: 'rounds' };
      return {
        id,
        name: info.name,
        timer: info.timed ? ('required' as const) : ('optional' as const),
        usual: null,
      };
    }),
    freeStatuses: false,
    timerUnit: 'ticks',
    clock: { key: 'sp', label: 'SP', min: 0 },
    counters: [],
    grid: false,
  }),
  newcomer: zodiacNewcomer,
  gmStatuses: () => ZODIAC_STATUSES,
  campaign: zodiacCampaign,
  parseGm,
};

const ZODIAC_STATUSES: readonly gm.RosterEntry[] = STATUS_IDS.map((id) => ({
  id,
  name: STATUSES[id].name,
}));
