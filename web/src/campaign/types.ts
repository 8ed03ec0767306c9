/**
 * `GET /api/table/campaign` as the page reads it (src/server/campaign-view.ts works it out):
 * written here, not imported, so the browser bundle holds no server code.
 */

export interface SheetLine {
  readonly label: string;
  readonly value: string;
}

export interface CampaignCharacter {
  readonly id: string;
  readonly name: string;
  readonly lines: readonly SheetLine[];
  /** Statistics from the sheet, with what the lasting state changes (level gains, class). */
  readonly stats: readonly SheetLine[];
  /** Abilities, spells, Techs, GFs, Powers: name and a short description. */
  readonly abilities: readonly SheetLine[];
  readonly abilitiesHeading: string;
  readonly items: readonly string[];
  readonly down: boolean;
}

export interface ServiceForm {
  readonly type: string;
  readonly fields: readonly {
    readonly name: string;
    readonly kind: 'character' | 'characters' | 'item' | 'number' | 'text';
    readonly optional: boolean;
  }[];
}

export interface LogEntry {
  readonly n: number;
  readonly kind: 'recruit' | 'service' | 'after-battle';
  readonly encounterId: string | null;
  readonly report: readonly string[];
  readonly by: string;
  readonly at: string;
  readonly undoneAt: string | null;
}

export interface FightHistory {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly status: 'active' | 'finished' | 'abandoned';
  readonly participants: readonly string[];
  readonly fell: readonly string[];
  readonly rewards: readonly string[];
  readonly finishedAt: string | null;
  readonly rewardsUndone: boolean;
}

export interface GmCampaign {
  readonly money: string | null;
  readonly characters: readonly CampaignCharacter[];
  readonly party: readonly SheetLine[];
  readonly services: readonly ServiceForm[];
  readonly items: readonly { readonly id: string; readonly name: string }[];
  readonly log: readonly LogEntry[];
  readonly history: readonly FightHistory[];
}

export interface PlayerCampaign {
  readonly money: string | null;
  readonly sheet: CampaignCharacter | null;
  readonly party: readonly { readonly id: string; readonly name: string; readonly down: boolean }[];
}

export type CampaignAnswer = GmCampaign | PlayerCampaign;

export interface Quote {
  readonly report: readonly string[];
  readonly cost: { readonly unit: string; readonly amount: number } | null;
}
