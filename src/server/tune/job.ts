/** What the tune route sends its worker thread, and what the thread sends back. */
import type { ContentLibraryJson } from '../../content/index.js';
import type { CampaignRoster } from '../../rulesets/campaign.js';
import type { BalanceResult } from '../../sim/balance/balance.js';
import type { VarySpec } from '../../sim/balance/spec.js';

interface JobBase {
  readonly system: string;
  /** The draft's encounter file, as the builder writes it. */
  readonly file: string;
  readonly roster: CampaignRoster;
  /** The table's library as the route read it: the worker plays what the route checked. */
  readonly library: ContentLibraryJson;
  readonly seed: string;
}

export type TuneJob =
  | (JobBase & {
      readonly kind: 'tune';
      /** `combatant` a monster id; `field` a sheet path or `count`. */
      readonly vary: VarySpec;
      /** The players' side's wanted win rate, 0 to 1. */
      readonly target: number;
    })
  | (JobBase & { readonly kind: 'predict'; readonly battles: number });

/** The players' side's win rate in a draft, with its 95% Wilson interval. */
export interface Prediction {
  readonly side: string;
  readonly battles: number;
  readonly wins: number;
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

export type TuneMessage =
  | { readonly type: 'progress'; readonly battles: number }
  | { readonly type: 'prediction'; readonly prediction: Prediction }
  | { readonly type: 'result'; readonly result: BalanceResult }
  | { readonly type: 'failed'; readonly message: string };
