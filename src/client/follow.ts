import { applyPatch, type JsonPatch, type JsonValue, PatchError } from '../json-patch/index.js';
import type { SeenEntry, ServerMessage, StatePayload } from '../server/protocol.js';

/**
 * What a client holds of an encounter, and how each message from the server changes it: the
 * log as its role sees it, and the present (`state`) kept up by the patches each entry brings.
 * Pure: the client, the web tracker's tests and the server's test harness follow a socket alike.
 */
export interface Followed {
  /** Every entry after `after`, in order, each once. */
  readonly entries: readonly SeenEntry[];
  /**
   * The entry the log held here starts after: 0, or the `since` of a first hello that asked only
   * for what came after it (a bot that follows the fight from now on, not its history).
   */
  readonly after?: number;
  /** The present as the role sees it: whole after a `hello`, patched after. */
  readonly state: StatePayload | null;
  /**
   * A `hello` was sent to have the whole state again: patches are not applied until it comes
   * (they would start from a state this client does not hold).
   */
  readonly resyncing: boolean;
}

export const NOTHING_FOLLOWED: Followed = { entries: [], state: null, resyncing: false };

export interface Followup {
  readonly followed: Followed;
  /** Entries new to this client, in order. */
  readonly fresh: readonly SeenEntry[];
  /**
   * Say `hello` with this number (the last entry held): a gap in the entries, or a patch that
   * does not start from the state held. The server answers with what is missing and the state.
   */
  readonly hello?: number;
}

/** The number of the last entry held (0 for none): what a `hello` names. */
export function lastSeq(followed: Followed): number {
  return followed.entries.at(-1)?.seq ?? followed.after ?? 0;
}

/** What a client that starts following at `since` holds: none of the entries up to it. */
export function followingFrom(since: number): Followed {
  return since > 0 ? { ...NOTHING_FOLLOWED, after: since } : NOTHING_FOLLOWED;
}

/** The state payload of a `state` message, without its type. */
export function statePayloadOf(message: StatePayload & { readonly type: string }): StatePayload {
  const { type: _, ...state } = message;
  return state;
}

/** `state` with the patch applied, or undefined when the patch does not fit it. */
export function patched(state: StatePayload, patch: JsonPatch): StatePayload | undefined {
  try {
    return applyPatch(state as unknown as JsonValue, patch) as unknown as StatePayload;
  } catch (error) {
    if (error instanceof PatchError) return undefined;
    throw error;
  }
}

/** What `message` changes of what the client holds; messages of no concern change nothing. */
export function follow(followed: Followed, message: ServerMessage): Followup {
  const resync = (fresh: readonly SeenEntry[], from: Followed = followed): Followup => ({
    followed: { ...from, resyncing: true },
    fresh,
    hello: lastSeq(from),
  });
  switch (message.type) {
    case 'entries': {
      const last = lastSeq(followed);
      const fresh: SeenEntry[] = [];
      let expected = last + 1;
      for (const entry of message.entries) {
        if (entry.seq < expected) continue;
        if (entry.seq > expected) break;
        fresh.push(entry);
        expected++;
      }
      const entries = fresh.length === 0 ? followed.entries : [...followed.entries, ...fresh];
      if (message.entries.some((e) => e.seq >= expected) && !followed.resyncing) {
        return resync(fresh, { ...followed, entries });
      }
      return { followed: { ...followed, entries }, fresh };
    }
    case 'state':
      return {
        followed: { ...followed, state: statePayloadOf(message), resyncing: false },
        fresh: [],
      };
    case 'entry': {
      const last = lastSeq(followed);
      // Sent before (a catch-up crossed it): nothing new, the state already has it.
      if (message.entry.seq <= last) return { followed, fresh: [] };
      // Entries were missed: ask from the last one held; the answer fills the gap. Asked
      // already: the answer to that hello holds this entry too.
      if (message.entry.seq > last + 1) {
        return followed.resyncing ? { followed, fresh: [] } : resync([]);
      }
      const entries = [...followed.entries, message.entry];
      return changedBy(followed, entries, [message.entry], message);
    }
    case 'changed':
      return changedBy(followed, followed.entries, [], message);
    case 'joined':
    case 'reconnecting':
    case 'left':
      // Each carries the whole list after it.
      if (followed.state === null) return { followed, fresh: [] };
      return {
        followed: { ...followed, state: { ...followed.state, connected: message.connected } },
        fresh: [],
      };
    case 'refused':
      // The encounter was rewound elsewhere (a restore): start again from nothing.
      if (message.code === 'sync/ahead') return resync([], NOTHING_FOLLOWED);
      return { followed, fresh: [] };
    default:
      return { followed, fresh: [] };
  }
}

function changedBy(
  followed: Followed,
  entries: readonly SeenEntry[],
  fresh: readonly SeenEntry[],
  message: { readonly base: number; readonly patch: JsonPatch },
): Followup {
  // The whole state is on its way: this patch starts from one not held.
  if (followed.resyncing) return { followed: { ...followed, entries }, fresh };
  const state =
    followed.state !== null && followed.state.seq === message.base
      ? patched(followed.state, message.patch)
      : undefined;
  if (state === undefined) {
    const kept = { ...followed, entries, resyncing: true };
    return { followed: kept, fresh, hello: lastSeq(kept) };
  }
  return { followed: { ...followed, entries, state }, fresh };
}
