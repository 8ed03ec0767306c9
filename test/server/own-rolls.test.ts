import { afterAll, describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { type CommandBase, Encounter } from '../../src/engine/index.js';
import { targetsFor } from '../../src/rulesets/ffrpg/decide.js';
import type { FfrpgState } from '../../src/rulesets/ffrpg/state.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import type { AnySystem } from '../../src/rulesets/system.js';
import { checkSubmit } from '../../src/server/permissions.js';
import type { StatePayload } from '../../src/server/protocol.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  type Heard,
  newTable,
  ROOT,
  startEncounterOver,
  useServer,
} from './harness.js';

/**
 * A player enters the dice of its own character's action and nothing else: every roll slot of
 * every action the rules offer it, in each system, checked against what the rule texts give the
 * acting character to roll; then the same over a real socket, where a refusal changes nothing.
 */

afterAll(stopFallbackPostgres);

type Command = CommandBase & Readonly<Record<string, unknown>>;
type Entry = Extract<Heard, { type: 'entry' }>;

/**
 * What the rule texts give the acting character to roll in `command`, by purpose: its own
 * attack, damage, check or spell, never the target's counter or Reaction, another's charge
 * going off, a status checked at the start of someone's turn, or the table's clock.
 */
type Mine = (state: unknown, command: Command, purpose: string) => boolean;

const split = (purpose: string): [string, string] => {
  const at = purpose.indexOf(':');
  return [purpose.slice(0, at), purpose.slice(at + 1)];
};

const MINE: Record<string, Mine> = {
  // "Roll d% against the Hit Rate", then the weapon's or the ability's damage; a Task Check.
  ffrpg(state, command, purpose) {
    const [kind, subject] = split(purpose);
    if (command.type === 'task-check') return purpose === 'check';
    if (command.type === 'attack')
      return ['hit', 'damage'].includes(kind) && subject === command.target;
    if (command.type !== 'use-ability') return false;
    const s = state as FfrpgState;
    const ability = s.setup.abilities[command.ability as string]!;
    const targets = targetsFor(
      s,
      s.combatants[command.actor as string]!,
      ability,
      command.target as string | undefined,
    );
    const at = kind === 'status' ? subject.slice(subject.indexOf(':') + 1) : subject;
    return (
      ['effect', 'damage', 'heal', 'status'].includes(kind) &&
      targets.ok &&
      targets.value.includes(at)
    );
  },
  // "The player rolls the dice and adds it to the appropriate action value"; a dodge is not a roll.
  ffviii(_state, command, purpose) {
    const prefix: Record<string, string> = {
      attack: 'attack',
      cast: 'cast',
      'use-item': 'item',
      summon: 'summon',
      draw: 'draw',
      sense: 'sense',
    };
    const p = prefix[command.type];
    return p !== undefined && purpose === `${p}:${command.target as string}`;
  },
  // A weapon's hit and damage, a spell's damage or healing, "roll 1d100 and add your Magic
  // Accuracy" for a status: the attacker's; Speed Points are the table's.
  zodiac(_state, command, purpose) {
    if (command.type !== 'attack' && command.type !== 'tech') return false;
    return ['hit', 'damage', 'heal', 'status'].includes(split(purpose)[0]);
  },
  // Hit, variance and critical d100s (and the d15 of the variance) are the attacker's; the fourth
  // and fifth are the defender's counter. A spell's or an item's variance, defeat and status
  // rolls are its user's, as is whether the item used cracks.
  'shining-force'(_state, command, purpose) {
    const [kind, subject] = split(purpose);
    if (command.type === 'attack')
      return (
        ['hit', 'variance', 'critical', 'variance-amount', 'status'].includes(kind) &&
        subject === command.target
      );
    if (command.type === 'use' && purpose === `crack:${command.item as string}`) return true;
    if (command.type !== 'cast' && command.type !== 'use') return false;
    return ['variance', 'variance-amount', 'defeat', 'status'].includes(kind);
  },
};

/** Purposes no command of a player's is ever given, whoever acts. */
function strangers(ids: readonly string[], me: string): string[] {
  const others = ids.filter((id) => id !== me);
  return [
    `initiative:${me}`,
    `turn-order:${me}`,
    `sp:${me}`,
    `gm:${me}`,
    `hit:${me}`,
    ...others.flatMap((id) => [`paralysis:${id}`, `counter:${id}`, `initiative:${id}`]),
    'bounce',
    'no-such-roll',
  ];
}

interface Scenario {
  readonly example: string;
  readonly party: readonly string[];
  /** The encounter's setup, changed before it starts (a Reaction no example gives). */
  readonly setup?: (setup: Record<string, unknown>) => void;
  /** GM commands first, then the first offered action, over and over. */
  readonly opening: readonly Command[];
  /** Others' rolls a player's command lists along the way: `<player> <purpose>`. */
  readonly met: readonly string[];
}

const SCENARIOS: Record<string, Scenario> = {
  ffrpg: {
    example: 'ffrpg-wind-cave',
    party: ['hiro', 'haze', 'mint'],
    // The Heket counters (a Monk's Reaction): its hit and damage against the attacker are its own.
    setup: (setup) => {
      const sides = setup.sides as { combatants: { id: string; abilities: string[] }[] }[];
      for (const side of sides)
        for (const c of side.combatants) if (c.id === 'heket') c.abilities.push('counter');
    },
    opening: [{ type: 'begin-round' }],
    met: ['mint reaction:counter', 'mint hit:mint', 'mint damage:mint'],
  },
  // The Giant's attack roll, rolled once Ehlric has dodged it or taken it.
  ffviii: {
    example: 'ffviii-iron-giant',
    party: ['ehlric'],
    opening: [],
    met: ['ehlric attack:ehlric'],
  },
  zodiac: { example: 'zodiac-keef-and-the-ogre', party: ['keef'], opening: [], met: [] },
  // The case: Hans acts while the Goblin is paralysed, its d100 listed in every command.
  'shining-force': {
    example: 'shining-force-gate',
    party: ['max', 'ken', 'hans', 'tao', 'lowe'],
    opening: [
      { type: 'begin-battle' },
      { type: 'gm-move', target: 'hans', to: 'F3' },
      { type: 'gm-status', target: 'goblin', status: 'paralysed' },
    ],
    met: ['hans paralysis:goblin', 'hans counter:goblin', 'hans turn-order:hans'],
  },
};

function start(name: string): {
  system: AnySystem;
  encounter: Encounter<unknown, unknown, Command, never>;
} {
  const scenario = SCENARIOS[name]!;
  const file = readEncounterFile(`${ROOT}examples/${scenario.example}.yaml`, SYSTEMS);
  if (!file.ok) throw new Error(JSON.stringify(file.errors));
  const setup = structuredClone(file.encounter.setup) as Record<string, unknown>;
  scenario.setup?.(setup);
  const system = file.encounter.system;
  const created = Encounter.create(system.ruleset, setup, 'own-rolls');
  if (!created.ok) throw new Error(created.error.message);
  const encounter = created.value as unknown as Encounter<unknown, unknown, Command, never>;
  for (const command of scenario.opening) {
    const done = encounter.submit(command);
    if (!done.ok) throw new Error(`${command.type}: ${done.error.message}`);
  }
  return { system, encounter };
}

describe.each(Object.keys(SCENARIOS))('%s: a player enters its own rolls, roll by roll', (name) => {
  it("accepts each of its action's own rolls and refuses every other slot and purpose", () => {
    const { system, encounter } = start(name);
    const scenario = SCENARIOS[name]!;
    const mine = MINE[name]!;
    let checkedOwn = 0;
    const refused = new Set<string>();
    let turns = 0;
    for (let step = 0; step < 60 && turns < 12; step++) {
      const legal = encounter.legalActions();
      if (legal.length === 0) break;
      const state = encounter.state;
      const ids = system.view(state).combatants.map((c) => c.id);
      for (const me of scenario.party) {
        const offered = legal.filter((a) => (a.command as Command).actor === me);
        if (offered.length === 0) continue;
        turns++;
        const role = { role: 'player', characterId: me } as const;
        const rolls = (c: CommandBase) => system.rolls(state, c);
        for (const action of offered) {
          const command = action.command as Command;
          const submit = { kind: 'command', command } as const;
          const slots = system.rolls(state, command);
          const purposes = [...slots.map((s) => s.purpose), ...strangers(ids, me)];
          for (const purpose of purposes) {
            const own = slots.some((s) => s.purpose === purpose) && mine(state, command, purpose);
            const refusal = checkSubmit(legal, role, submit, command, { [purpose]: [1] }, rolls);
            const what = `${me}: ${JSON.stringify(command)} with ${purpose}`;
            if (own) {
              expect(refusal, what).toBeUndefined();
              // A repeat of its own roll (`#2`) is its own too.
              expect(
                checkSubmit(legal, role, submit, command, { [`${purpose}#2`]: [1] }, rolls),
                what,
              ).toBeUndefined();
              checkedOwn++;
            } else {
              expect(refusal, what).toMatchObject({ code: 'role/not-your-roll' });
              refused.add(`${me} ${purpose}`);
            }
          }
          // Its own rolls with one other purpose among them: refused all the same.
          const others = slots.filter((s) => !mine(state, command, s.purpose));
          const owns = slots.filter((s) => mine(state, command, s.purpose));
          if (owns.length > 0 && others.length > 0) {
            const dice = Object.fromEntries(
              [...owns, others[0]!].map((s) => [s.purpose, [1]] as const),
            );
            expect(checkSubmit(legal, role, submit, command, dice, rolls)).toMatchObject({
              code: 'role/not-your-roll',
            });
          }
        }
      }
      const next = legal[0]!.command;
      const done = encounter.submit(next);
      if (!done.ok) throw new Error(`${next.type}: ${done.error.message}`);
    }
    expect(turns).toBeGreaterThan(0);
    expect(checkedOwn).toBeGreaterThan(0);
    for (const m of scenario.met) expect(refused).toContain(m);
  });
});

/** The purposes of every roll in the events that was entered at the table, not rolled. */
function enteredIn(events: unknown): string[] {
  const found: string[] = [];
  JSON.stringify(events, (_key, v: unknown) => {
    const roll = v as { purpose?: unknown; entered?: unknown } | null;
    if (typeof roll?.purpose === 'string' && roll.entered === true) found.push(roll.purpose);
    return v;
  });
  return found;
}

interface Table {
  readonly system: string;
  readonly example: string;
  readonly me: string;
  readonly opening: readonly Command[];
  /** Which of its offered actions the player submits. */
  readonly pick: (command: Command) => boolean;
  /** Others' rolls, or the table's, that the player tries to enter with it. */
  readonly theirs: readonly string[];
  /** Its own roll, as rolled at the table. */
  readonly own: Readonly<Record<string, number[]>>;
}

const TABLES: readonly Table[] = [
  {
    system: 'ffrpg',
    example: 'ffrpg-wind-cave',
    me: 'hiro',
    opening: [{ type: 'begin-round' }],
    pick: (c) => c.type === 'attack',
    theirs: ['initiative:hiro', 'initiative:heket', 'hit:hiro', 'gm:heket'],
    own: { 'hit:heket': [1, 1] },
  },
  {
    system: 'ffviii',
    example: 'ffviii-iron-giant',
    me: 'ehlric',
    opening: [{ type: 'begin-round' }],
    pick: (c) => c.type === 'cast' && c.target === 'ehlric',
    theirs: ['initiative:ehlric', 'attack:ehlric', 'attack:iron-giant'],
    own: { 'cast:ehlric': [3, 2] },
  },
  {
    system: 'zodiac',
    example: 'zodiac-keef-and-the-ogre',
    me: 'keef',
    opening: [{ type: 'begin-battle' }],
    pick: (c) => c.type === 'attack',
    theirs: ['sp:keef', 'sp:ogre', 'hit:keef', 'damage:keef'],
    own: { 'hit:ogre': [50] },
  },
  {
    // The case: Hans's player entered the paralysed Goblin's d100.
    system: 'shining-force',
    example: 'shining-force-gate',
    me: 'hans',
    opening: [
      { type: 'begin-battle' },
      { type: 'gm-move', target: 'hans', to: 'F3' },
      { type: 'gm-status', target: 'goblin', status: 'paralysed' },
    ],
    pick: (c) => c.type === 'attack' && c.target === 'goblin',
    theirs: [
      'paralysis:goblin',
      'counter:goblin',
      'counter-variance:goblin',
      'counter-variance-amount:goblin',
      'turn-order:hans',
      'turn-order:goblin',
    ],
    own: { 'hit:goblin': [100] },
  },
];

describe('over a socket, on SQLite: a refused roll changes nothing', () => {
  const running = useServer('sqlite');

  it.each(TABLES)('$system: $me enters its own roll, and no one else’s', async (t) => {
    const { table, gmToken } = await newTable(running.store, t.system);
    const encounterId = await startEncounterOver(running.url, gmToken, example(t.example), 'own');
    const { client: gm, state: first } = await Client.join(running.url, encounterId, gmToken);
    let state: StatePayload = first;
    const play = async (command: Command) => {
      const answer = await gm.submit(state.seq + 1, `gm-${state.seq + 1}`, {
        kind: 'command',
        command,
      });
      if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
      state = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === answer.seq);
    };
    for (const command of t.opening) await play(command);
    // The GM passes everyone else's turn until the player's character is asked to act.
    for (let i = 0; i < 30 && state.view.actor !== t.me; i++) {
      const actor = state.view.actor;
      await play(
        actor === null
          ? (state.actions[0]!.command as Command)
          : { type: 'gm-skip', target: actor },
      );
    }
    const token = await running.store.createToken(table.id, { role: 'player', characterId: t.me });
    if (!token.ok) throw new Error(token.error.message);
    const { client: player, state: mine } = await Client.join(
      running.url,
      encounterId,
      token.value.token,
    );
    const action = mine.actions.find((a) => t.pick(a.command as Command));
    expect(action, JSON.stringify(mine.actions.map((a) => a.command))).toBeDefined();
    const submit = { kind: 'command', command: action!.command } as const;
    const next = state.seq + 1;
    for (const purpose of t.theirs) {
      const answer = await player.submit(next, `theirs-${purpose}`, submit, {
        ...t.own,
        [purpose]: [1],
      });
      expect(answer, purpose).toMatchObject({ type: 'refused', code: 'role/not-your-roll' });
    }
    expect(await running.store.lastSeq(encounterId)).toBe(state.seq);
    expect(gm.messages.filter((m) => m.type === 'entry').at(-1)).toMatchObject({ seq: state.seq });

    const accepted = await player.submit(next, 'own', submit, { ...t.own });
    expect(accepted).toMatchObject({ type: 'accepted', seq: next });
    const entry = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === next);
    expect(enteredIn(entry.entry.events)).toEqual(Object.keys(t.own));
    gm.close();
    player.close();
  });
});
