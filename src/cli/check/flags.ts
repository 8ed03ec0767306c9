/** Every `moogle check` flag, across the systems; each system reads its own and refuses others. */
export interface CheckFlags {
  rating?: string;
  modifier?: string;
  actionValue?: string;
  difficulty?: string;
  boxcars?: boolean;
  accuracy?: string;
  evade?: string;
  critical?: string;
  counter?: string;
  rolls?: string;
  d15?: string;
  roll?: string;
  seed?: string;
  impossible?: boolean;
  json?: boolean;
}
