import type { SeededDice } from '../../../dice/index.js';
import type { ShiningForceState } from '../../../rulesets/shining-force/state.js';
import { consumablesHeld } from '../../../rulesets/shining-force/system.js';
import type { AnySystem } from '../../../rulesets/system.js';
import type { CombatantTally } from '../../aggregate.js';
import { tactician } from '../../tactician/index.js';
import type { BattleKernel, KernelFactory, Standing } from '../kernel.js';
import { Battle } from './battle.js';
import { openingsFor } from './openings.js';
import { Choice, KernelTactician } from './tactician.js';

/**
 * Shining Force's battles under the tactician, played by the kernel: a battle there is some 70
 * commands and 30 move searches, each decision scoring every cell a unit can reach, and over the
 * rules' events and states it cost six to eight times the 25,000 raw draws issue 15 allows.
 * Any other policy, or a state whose roster does not match its start's view, goes to the
 * runner's loop.
 */
export const shiningForceKernel: KernelFactory = (system, start, policy) => {
  if (policy !== tactician) return undefined;
  const state = start as ShiningForceState;
  // The runner tallies by place in the start's view, which lists the roster in its order.
  const view = system.view(start).combatants;
  if (view.length !== state.combatants.length) return undefined;
  for (let i = 0; i < view.length; i++)
    if (view[i]!.id !== state.combatants[i]!.id) return undefined;
  return new ShiningForceKernel(system, state);
};

class ShiningForceKernel implements BattleKernel {
  private readonly battle: Battle;
  private readonly tactician: KernelTactician;
  private readonly struck: Float64Array;
  private readonly left: Float64Array;

  constructor(
    system: AnySystem,
    private readonly start: ShiningForceState,
  ) {
    this.battle = new Battle(start);
    this.tactician = new KernelTactician(system, this.battle, openingsFor(start));
    this.struck = new Float64Array(start.combatants.length);
    this.left = new Float64Array(start.combatants.length);
  }

  play(
    dice: SeededDice,
    maxCommands: number,
    tallies: readonly CombatantTally[],
  ): { readonly state: unknown; readonly commands: number; readonly standing: Standing[] } {
    const b = this.battle;
    const t = this.tactician;
    b.reset(this.start, dice);
    let commands = 0;
    for (; commands < maxCommands; commands++) {
      if (b.result !== null) break;
      t.choose();
      if (t.kind === Choice.None) break;
      b.beginCommand();
      const actor = b.step === null ? -1 : b.orderPlaces[b.cursor]!;
      switch (t.kind) {
        case Choice.Begin:
          b.beginBattle();
          break;
        case Choice.Move:
          b.move(actor, t.cell);
          break;
        case Choice.Attack:
          b.attackAndEnd(actor, t.target);
          break;
        case Choice.Stay:
          b.stay(actor);
          break;
        case Choice.Cast:
          b.cast(actor, t.what, t.target);
          break;
        case Choice.Use:
          b.use(actor, t.what, t.target);
          break;
      }
      if (b.blows > 0) this.tally(tallies);
    }
    // As the system's view shows each combatant (system.ts view), without drawing the board.
    const standing: Standing[] = [];
    for (const c of b.cs) {
      standing.push({
        hp: c.hp,
        maxHp: c.sheet.stats.hp,
        mp: c.mp,
        maxMp: c.sheet.stats.mp,
        out: c.defeated,
        items: consumablesHeld(b.setup, c.items),
      });
    }
    return { state: b.state(), commands, standing };
  }

  /**
   * The runner's tallyBlows for the command just played: each blow capped at what its target
   * had left (in the state before the command, less the blows before it), when any may have gone
   * past it; the rest is overkill.
   */
  private tally(tallies: readonly CombatantTally[]): void {
    const b = this.battle;
    const { struck, left } = this;
    const { blows, blowTarget, blowSource, blowAmount, cs, hpBefore } = b;
    for (let k = 0; k < blows; k++) {
      const target = blowTarget[k]!;
      struck[target] = struck[target]! + Math.max(blowAmount[k]!, 0);
    }
    let capped = false;
    for (let k = 0; k < blows; k++) {
      const target = blowTarget[k]!;
      const c = cs[target]!;
      if (c.hp <= 0 || c.hp + struck[target]! > c.sheet.stats.hp) capped = true;
    }
    if (capped) for (let i = 0; i < cs.length; i++) left[i] = Math.max(hpBefore[i]!, 0);
    for (let k = 0; k < blows; k++) {
      const target = blowTarget[k]!;
      const source = blowSource[k]!;
      const rolled = Math.max(blowAmount[k]!, 0);
      let lost = rolled;
      struck[target] = 0;
      if (capped) {
        lost = Math.min(rolled, left[target]!);
        left[target] = left[target]! - lost;
      }
      const taken = tallies[target]!;
      taken.damageTaken += lost;
      taken.overkillTaken += rolled - lost;
      const dealt = tallies[source]!;
      dealt.damageDealt += lost;
      dealt.overkillDealt += rolled - lost;
    }
  }
}
