import type { LegalAction } from '../../engine/index.js';
import type { FfviiiCommand } from './commands.js';
import { pendingName } from './names.js';
import { actorNow, type CombatantState, type FfviiiState, inFight, standing } from './state.js';
import { reloadShots, summonShots, validate } from './validate.js';

type Action = LegalAction<FfviiiCommand>;

/**
 * Actions whose label names only what never changes in a fight (sheets, weapons, spells) are
 * made once per acting sheet and shared (commands are plain data nobody changes): simulations
 * ask for the legal actions before every command. Kept by the ids they name, never by a key
 * built of them. Labels that count something (shots, stock) are made afresh.
 */
interface Cache {
  /** By weapon id, then target id. */
  readonly attacks: Map<string, Map<string, Action>>;
  /** By target id, then spell id. */
  readonly draws: Map<string, Map<string, Action>>;
  /** By target id. */
  readonly senses: Map<string, Action>;
  /** By weapon id. */
  readonly reloads: Map<string, Action>;
  wait: Action | undefined;
  pass: Action | undefined;
  flee: Action | undefined;
}
const CACHES = new WeakMap<object, Cache>();

function cacheOf(sheet: object): Cache {
  let cache = CACHES.get(sheet);
  if (cache === undefined) {
    cache = {
      attacks: new Map(),
      draws: new Map(),
      senses: new Map(),
      reloads: new Map(),
      wait: undefined,
      pass: undefined,
      flee: undefined,
    };
    CACHES.set(sheet, cache);
  }
  return cache;
}

function once<K>(map: Map<K, Action>, key: K, make: () => Action): Action {
  let action = map.get(key);
  if (action === undefined) {
    action = make();
    map.set(key, action);
  }
  return action;
}

function inner<K>(map: Map<K, Map<string, Action>>, key: K): Map<string, Action> {
  let found = map.get(key);
  if (found === undefined) {
    found = new Map();
    map.set(key, found);
  }
  return found;
}

/**
 * What can be done now: the GM's begin-round and powers before initiative; the target's
 * answer to an attack; or the actions of the first combatant on the called shot (others on
 * the same shot may act too, by command). Every candidate goes through the same validation
 * as decide, so the list never offers what decide would refuse. The shot's actor's own actions
 * read without its name ("Attack Iron Giant with Staff"): the screen already says whose shot it
 * is. What another takes (a dodge, a power before initiative) names who takes it.
 */
export function legalActions(state: FfviiiState): readonly LegalAction<FfviiiCommand>[] {
  const out: LegalAction<FfviiiCommand>[] = [];
  const offer = (label: string, command: FfviiiCommand): void => {
    if (validate(state, command) === undefined) out.push({ label, command });
  };
  const offerMade = (action: Action): void => {
    if (validate(state, action.command) === undefined) out.push(action);
  };
  if (state.phase === 'ended') return out;
  if (state.phase === 'initiative') {
    offer(`begin round ${state.round + 1}: roll initiative`, { type: 'begin-round' });
    for (const id of state.order) {
      const c = state.combatants[id]!;
      for (const power of c.sheet.powers)
        offer(`${c.sheet.name}: ${state.setup.powers[power]?.name ?? power} (before initiative)`, {
          type: 'use-power',
          actor: id,
          power,
        });
    }
    return out;
  }
  if (state.phase === 'dodge' && state.pending !== null) {
    const target = state.combatants[state.pending.target]!;
    const what = pendingName(state, state.pending);
    const attacker = state.combatants[state.pending.actor]!.sheet.name;
    offer(`${target.sheet.name}: dodge ${attacker}'s ${what} (+3, 1 shot)`, {
      type: 'dodge',
      actor: target.id,
    });
    offer(`${target.sheet.name}: take ${attacker}'s ${what}`, {
      type: 'take-it',
      actor: target.id,
    });
    return out;
  }
  const actor = actorNow(state);
  if (actor === undefined) return out;
  const id = actor.id;
  if (actor.carrying !== null) {
    offer('Complete the action carried over', { type: 'complete', actor: id });
    if (out.length === 0)
      for (const other of state.order) {
        const c = state.combatants[other]!;
        if (c.side !== actor.side)
          offer(`Complete it against ${c.sheet.name}`, {
            type: 'complete',
            actor: id,
            target: other,
          });
      }
    offer('Abandon it and pass for the rest of the round', { type: 'pass', actor: id });
    return out;
  }
  const enemies: CombatantState[] = [];
  const friends: CombatantState[] = [];
  for (const other of state.order) {
    const c = state.combatants[other]!;
    if (c.side !== actor.side && standing(c)) enemies.push(c);
    else if (c.side === actor.side && inFight(c)) friends.push(c);
  }
  // Hardest-hitting weapon first: a table (or a policy) taking the first attack offered swings
  // the one most likely to get through Toughness.
  const rating = (w: (typeof actor.sheet.weapons)[number]): number =>
    (w.damage.strength ? actor.sheet.attributes.strength : 0) + w.damage.bonus;
  const weapons =
    actor.sheet.weapons.length > 1
      ? [...actor.sheet.weapons].sort((a, b) => rating(b) - rating(a))
      : actor.sheet.weapons;
  const cache = cacheOf(actor.sheet);
  for (const weapon of weapons) {
    const byTarget = inner(cache.attacks, weapon.id);
    for (const e of enemies)
      offerMade(
        once(byTarget, e.id, () => ({
          label: `Attack ${e.sheet.name} with ${weapon.name} (${weapon.shots} shots)`,
          command: { type: 'attack', actor: id, target: e.id, weapon: weapon.id },
        })),
      );
  }
  for (const [spellId, stock] of Object.entries(actor.matrix)) {
    const spell = state.setup.spells[spellId];
    if (spell === undefined || stock <= 0) continue;
    for (const t of spell.willing ? friends : enemies)
      offer(`Cast ${spell.name} on ${t.sheet.name} (4 shots, ${stock} in stock)`, {
        type: 'cast',
        actor: id,
        spell: spellId,
        target: t.id,
      });
  }
  for (const link of actor.sheet.guardianForces) {
    const gf = state.setup.guardianForces[link.gf];
    if (gf === undefined) continue;
    const shots = summonShots(state, actor, link.gf);
    for (const e of enemies)
      offer(`Summon ${gf.name} against ${e.sheet.name} (${shots} shots)`, {
        type: 'summon',
        actor: id,
        gf: link.gf,
        target: e.id,
      });
  }
  for (const [itemId, count] of Object.entries(actor.items)) {
    const item = state.setup.items[itemId];
    if (item === undefined || count <= 0) continue;
    for (const t of item.willing ? friends : enemies)
      offer(`Use ${item.name} on ${t.sheet.name} (3 shots, ${count} left)`, {
        type: 'use-item',
        actor: id,
        item: itemId,
        target: t.id,
      });
  }
  for (const weapon of actor.sheet.weapons) {
    if (weapon.gun === undefined) continue;
    const kind = weapon.gun.kind;
    offerMade(
      once(cache.reloads, weapon.id, () => ({
        label: `Reload ${weapon.name} (${reloadShots(kind)} shots)`,
        command: { type: 'reload', actor: id, weapon: weapon.id },
      })),
    );
  }
  if (actor.sheet.skills.sorcery !== undefined)
    for (const e of enemies) {
      const bySpell = inner(cache.draws, e.id);
      for (const spell of e.sheet.spellshards)
        offerMade(
          once(bySpell, spell, () => ({
            label: `Draw ${state.setup.spells[spell]?.name ?? spell} from ${e.sheet.name} (4 shots)`,
            command: { type: 'draw', actor: id, target: e.id, spell },
          })),
        );
    }
  if (actor.sheet.skills.awareness !== undefined)
    for (const e of enemies)
      if (!actor.sensed.includes(e.id))
        offerMade(
          once(cache.senses, e.id, () => ({
            label: `Sense ${e.sheet.name}'s Spellshards (2 shots)`,
            command: { type: 'sense', actor: id, target: e.id },
          })),
        );
  cache.wait ??= { label: 'Wait a shot', command: { type: 'wait', actor: id, shots: 1 } };
  offerMade(cache.wait);
  cache.pass ??= {
    label: 'Pass for the rest of the round',
    command: { type: 'pass', actor: id },
  };
  offerMade(cache.pass);
  cache.flee ??= { label: 'Flee', command: { type: 'flee', actor: id } };
  offerMade(cache.flee);
  return out;
}
