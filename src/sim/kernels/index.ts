import type { AnySystem } from '../../rulesets/system.js';
import type { Policy } from '../policies.js';
import type { BattleKernel, KernelFactory } from './kernel.js';
import { shiningForceKernel } from './shining-force/index.js';

export type { BattleKernel } from './kernel.js';

/** Systems whose battles the runner's loop over the rules plays too slowly for a designer. */
const KERNELS: Readonly<Record<string, KernelFactory>> = {
  'shining-force': shiningForceKernel,
};

/** The kernel for these battles, if the system has one that plays them exactly. */
export function kernelFor(
  system: AnySystem,
  start: unknown,
  policy: Policy,
): BattleKernel | undefined {
  const factory = Object.hasOwn(KERNELS, system.ruleset.id)
    ? KERNELS[system.ruleset.id]
    : undefined;
  return factory?.(system, start, policy);
}
