import { gm } from '../../engine/index.js';
import { count } from '../grammar.js';
import { stockOf } from '../stock.js';
import type { EncounterView, GameSystem } from '../system.js';
import { ffviiiCampaign } from './campaign/index.js';
import type { FfviiiCommand } from './commands.js';
import {
  type EncounterSpec,
  encounterSpecSchema,
  ffviiiKinds,
  ffviiiNewcomer,
  ffviiiSetupFrom,
  STARTER_CONTENT_DIR,
} from './content.js';
import { describeEvents } from './describe.js';
import type { FfviiiEvent } from './events.js';
import { ELEMENTS, type FfviiiSetup } from './model.js';
import { carriedName } from './names.js';
import { ffviiiOdds } from './odds.js';
import { ffviiiOrderRolls, ffviiiRolls } from './rolls.js';
import { ffviii } from './ruleset.js';
import { actorNow, type FfviiiState, inFight } from './state.js';

function view(state: FfviiiState): EncounterView {
  const timing =
    state.phase === 'ended'
      ? `Over after round ${state.round}`
      : state.phase === 'initiative'
        ? `Round ${state.round + 1}: before initiative`
        : `Round ${state.round}, Shot ${state.shot} of ${state.shots}`;
  const actor = actorNow(state);
  // The shot clock: who acts on which shot, highest first; debts and carried actions shown.
  const order = [...state.order]
    .map((id) => state.combatants[id]!)
    .sort((a, b) => b.shot - a.shot)
    .map((c) => {
      const mark = actor?.id === c.id ? '>' : ' ';
      const waiting = state.phase === 'initiative';
      const when =
        !inFight(c) || waiting ? '  -' : c.shot === 0 ? ' --' : String(c.shot).padStart(3);
      const notes = [
        !inFight(c) ? (c.fled ? 'fled' : 'down') : c.shot === 0 && !waiting ? 'no shots left' : '',
        c.debt > 0 ? `${c.debt} shots of debt` : '',
        c.carrying === null ? '' : `carrying ${carriedName(state, c, c.carrying)}`,
      ].filter((n) => n !== '');
      return `${mark} ${when} ${c.sheet.name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
    });
  return {
    timing,
    order,
    actor: actor?.id ?? null,
    sides: state.setup.sides.map((s) => ({ id: s.id, name: s.name })),
    combatants: state.order.map((id) => {
      const c = state.combatants[id]!;
      const stock = Object.entries(c.matrix)
        .filter(([, n]) => n > 0)
        .map(([spell, n]) => ({ name: state.setup.spells[spell]?.name ?? spell, count: n }));
      return {
        id,
        name: c.sheet.name,
        side: c.side,
        hp: c.hp,
        maxHp: c.sheet.hp,
        mp: 0,
        maxMp: 0,
        out: !inFight(c),
        fled: c.fled,
        items: stockOf(c.items),
        statuses: Object.entries(c.statuses).map(([name, rounds]) => ({
          id: name,
          name,
          timer: rounds === null ? '' : count(rounds, 'round'),
        })),
        stock,
        notes: gm.notesOf(state.notes, id),
        // Its place on the shot clock: the shot it acts on next (none between rounds or once
        // out), its shot debt, this round's initiative.
        clock: {
          shot:
            state.phase === 'shots' || state.phase === 'dodge'
              ? inFight(c)
                ? c.shot
                : null
              : null,
          debt: c.debt,
          initiative: state.round === 0 ? null : c.initiative,
        },
      };
    }),
    clock: {
      round: state.round,
      shot: state.phase === 'shots' || state.phase === 'dodge' ? state.shot : null,
      shots: state.shots,
      phase: state.phase,
    },
  };
}

/** What FFVIII adds to the GM's vocabulary: shots, debt, ammunition, Spellshards, items; no MP. */
const GM_VOCABULARY: gm.GmVocabulary = {
  resources: [
    { name: 'shots', help: 'its next shot: the shot it acts on (this shot or a later one)' },
    { name: 'debt', help: 'shot debt, taken from its next initiative' },
    { name: 'ammo', key: 'weapon', help: 'rounds in a gun' },
    { name: 'shards', key: 'spell', help: 'a spell in stock in its Spell Matrix' },
    { name: 'item', key: 'item', help: 'how many of an item it carries' },
  ],
  clock: 'next shot',
  mp: false,
  elements: [...ELEMENTS],
  examples: [
    'gm hp iron-giant 40',
    'gm hp ehlric +10',
    'gm shots iron-giant 8',
    'gm clock ehlric -2',
    'gm debt ehlric 0',
    'gm shards ehlric thunder +1',
    'gm item ehlric potion 3',
    'gm status iron-giant +slow 2',
    'gm add iron-giant to giant as Iron Giant 2',
    'gm skip iron-giant',
    'gm damage iron-giant 20 lightning',
    'gm heal ehlric 2d6',
    'gm note iron-giant behind the pillar',
  ],
};

/** The FFVIII RPG for the tools: encounter files, the shot clock view, statistics, odds. */
export const ffviiiSystem: GameSystem<
  FfviiiSetup,
  FfviiiState,
  FfviiiCommand,
  FfviiiEvent,
  EncounterSpec
> = {
  ruleset: ffviii,
  kinds: ffviiiKinds,
  starterContent: STARTER_CONTENT_DIR,
  encounterSpec: encounterSpecSchema,
  setupFrom: ffviiiSetupFrom,
  view,
  brief(state) {
    return {
      actor: actorNow(state)?.id ?? null,
      combatants: state.order.map((id) => {
        const c = state.combatants[id]!;
        return { id, side: c.side, hp: c.hp, out: !inFight(c) };
      }),
    };
  },
  describe: describeEvents,
  damageOf(event) {
    if (event.type !== 'damage-dealt' || event.source === event.target) return undefined;
    return { source: event.source, target: event.target, amount: event.amount };
  },
  rounds: (state) => state.round,
  odds: ffviiiOdds,
  rolls: ffviiiRolls,
  orderRolls: ffviiiOrderRolls,
  gm: GM_VOCABULARY,
  gmMenu: (state) => {
    // The text names no statuses: any word will do. Those already in this fight are offered.
    const names = new Set<string>();
    for (const id of Object.keys(state.combatants))
      for (const name of Object.keys(state.combatants[id]!.statuses)) names.add(name);
    return {
      statuses: [...names].sort().map((id) => ({
        id,
        name: id,
        timer: 'optional' as const,
        usual: null,
      })),
      freeStatuses: true,
      timerUnit: 'rounds',
      clock: { key: 'shot', label: 'Next shot', min: 1 },
      counters: [{ key: 'debt', label: 'Shot debt', resource: 'debt', min: 0 }],
      grid: false,
    };
  },
  newcomer: ffviiiNewcomer,
  campaign: ffviiiCampaign,
};
