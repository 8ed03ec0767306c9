/**
 * Names every plain object answers to through its prototype (`constructor`, `toString`,
 * `__proto__`...). Rules look combatants, statuses and spells up by id in plain records, where
 * `record['constructor']` finds a function, not nothing: such a name is refused wherever a
 * person can give one, so no lookup ever sees anything but the data.
 */
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Fields whose strings are prose a person wrote, never looked up. */
const PROSE = new Set(['text', 'task', 'name', 'description', 'label', 'breakdown', 'reason']);

/** At most this deep: commands and setups are shallow; a deeper input is not walked further. */
const MAX_DEPTH = 64;

/**
 * The first reserved name used as an id or a key in a command, setup or save (with its path),
 * or undefined. Prose fields may say anything.
 */
export function reservedNameIn(value: unknown, path = '', depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof value === 'string') return RESERVED.has(value) ? describe(value, path) : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = reservedNameIn(item, `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (RESERVED.has(key)) return describe(key, at);
    if (PROSE.has(key) && typeof (value as Record<string, unknown>)[key] === 'string') continue;
    const found = reservedNameIn((value as Record<string, unknown>)[key], at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function describe(name: string, path: string): string {
  return `${path === '' ? '' : `${path}: `}'${name}' cannot name anything here (JavaScript reserves it)`;
}
