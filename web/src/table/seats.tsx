import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import type { Api } from '../api.js';
import type { Connected, TableInfo } from '../types.js';
import { useTableEvents, useTablePresence } from './table-live.js';

/** A link of the table as `GET /api/table/invites` lists it: never its secret. */
interface Invite {
  readonly tokenId: string;
  readonly role: 'gm' | 'player' | 'spectator';
  readonly characterId?: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** A link just made: its address is shown this once (the server keeps only its hash). */
interface Made {
  readonly seat: string;
  readonly tokenId: string;
  readonly link: string;
}

type Seen = 'connected' | 'reconnecting' | 'not connected' | 'revoked';

const SPECTATORS = '@spectators';
const GAME_MASTERS = '@gm';

function seatOf(invite: Invite): string | undefined {
  if (invite.role === 'player') return invite.characterId;
  return invite.role === 'spectator' ? SPECTATORS : GAME_MASTERS;
}

/** The seat's heading, and whom its new link is for. */
function titleOf(seat: string): { readonly title: string; readonly whom: string } {
  if (seat === GAME_MASTERS) return { title: 'Game masters', whom: 'a co-GM' };
  if (seat === SPECTATORS) return { title: 'Spectators', whom: 'a spectator' };
  return { title: seat, whom: seat };
}

function seenOf(invite: Invite, connected: readonly Connected[]): Seen {
  if (invite.revokedAt !== null) return 'revoked';
  const here = connected.find((c) => c.link === invite.tokenId);
  return here?.status ?? 'not connected';
}

const when = (iso: string): string => new Date(iso).toLocaleString();

/**
 * The GM's seats at the table: the game masters, each character of the roster, and the
 * spectators, with every link made for them (when, whether its holder is connected now, revoked), live through the
 * table's socket. A new link's address is shown once, with a QR code for a phone to scan; a
 * link is revoked after a second touch, and its open screens are closed at once.
 */
export function Seats({ api, info }: { api: Api; info: TableInfo }) {
  const [invites, setInvites] = useState<readonly Invite[]>([]);
  const [made, setMade] = useState<Made | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { connected } = useTablePresence();

  const load = useCallback(async () => {
    try {
      setInvites((await api.get<{ invites: Invite[] }>('/api/table/invites')).invites);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);
  useTableEvents(
    useCallback(
      (event) => {
        if (event.type === 'invites-changed') void load();
      },
      [load],
    ),
  );

  const act = async (job: () => Promise<void>): Promise<void> => {
    try {
      await job();
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const newLink = (seat: string) =>
    act(async () => {
      const created = await api.post<{ link: string; invite: Invite }>(
        '/api/table/invites',
        seat === GAME_MASTERS
          ? { role: 'gm' }
          : seat === SPECTATORS
            ? { role: 'spectator' }
            : { role: 'player', character: seat },
      );
      setMade({ seat, tokenId: created.invite.tokenId, link: created.link });
      await load();
    });
  const revoke = (tokenId: string) =>
    act(async () => {
      await api.delete(`/api/table/invites/${encodeURIComponent(tokenId)}`);
      setConfirming(null);
      if (made?.tokenId === tokenId) setMade(null);
      await load();
    });

  const seats = useMemo(() => {
    const members = info.roster.map((r) => r.character).filter((c) => !c.startsWith('@'));
    // A link for a character since dropped from the roster still has its seat here.
    for (const invite of invites) {
      const seat = seatOf(invite);
      if (seat === undefined || seat === SPECTATORS || seat === GAME_MASTERS) continue;
      if (!members.includes(seat)) members.push(seat);
    }
    return [GAME_MASTERS, ...members, SPECTATORS];
  }, [info.roster, invites]);

  return (
    <section aria-labelledby="seats-h" class="panel seats">
      <h2 id="seats-h">Seats</h2>
      {seats.map((seat) => {
        const links = invites.filter((i) => seatOf(i) === seat);
        const { title, whom } = titleOf(seat);
        // This screen's own link is never among the older ones to revoke at a touch.
        const older = links.filter(
          (i) => i.revokedAt === null && i.tokenId !== made?.tokenId && i.tokenId !== info.link,
        );
        return (
          <article key={seat} class="seat" aria-label={`Seat: ${title}`} data-seat={seat}>
            <h3>{title}</h3>
            {links.length === 0 ? (
              <p class="muted">No link yet.</p>
            ) : (
              <ul class="plain-list seat-links">
                {links.map((invite) => {
                  const seen = seenOf(invite, connected);
                  return (
                    <li key={invite.tokenId} data-link={invite.tokenId} data-seen={seen}>
                      <span class="mono">{invite.tokenId}</span> · made {when(invite.createdAt)} ·{' '}
                      <span class={`seen seen-${seen.replace(' ', '-')}`}>{seen}</span>
                      {invite.tokenId === info.link && (
                        <span class="muted" data-testid="this-screen">
                          {' '}
                          · this screen's link
                        </span>
                      )}
                      {invite.revokedAt === null &&
                        invite.tokenId !== info.link &&
                        (confirming === invite.tokenId ? (
                          <span class="confirm">
                            {' '}
                            Revoke it? Its screens close now.{' '}
                            <button type="button" onClick={() => void revoke(invite.tokenId)}>
                              Yes, revoke
                            </button>{' '}
                            <button type="button" onClick={() => setConfirming(null)}>
                              Keep it
                            </button>
                          </span>
                        ) : (
                          <>
                            {' '}
                            <button type="button" onClick={() => setConfirming(invite.tokenId)}>
                              Revoke{' '}
                              {seat === SPECTATORS || seat === GAME_MASTERS
                                ? 'this link'
                                : `${title}'s link`}
                            </button>
                          </>
                        ))}
                    </li>
                  );
                })}
              </ul>
            )}
            <button type="button" onClick={() => void newLink(seat)}>
              New link for {whom}
            </button>
            {made?.seat === seat && (
              <NewLink
                link={made.link}
                title={title}
                holder={seat === GAME_MASTERS ? "the co-GM's device" : "the player's phone"}
                older={older.length}
                onRevokeOlder={() =>
                  void act(async () => {
                    for (const i of older) {
                      await api.delete(`/api/table/invites/${encodeURIComponent(i.tokenId)}`);
                    }
                    await load();
                  })
                }
              />
            )}
          </article>
        );
      })}
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
    </section>
  );
}

function NewLink({
  link,
  title,
  holder,
  older,
  onRevokeOlder,
}: {
  link: string;
  title: string;
  holder: string;
  older: number;
  onRevokeOlder: () => void;
}) {
  // Drawn here, from the address alone: the link never leaves the page to be drawn.
  const svg = useMemo(() => renderSVG(link, { border: 2, pixelSize: 6 }), [link]);
  return (
    <div class="new-link">
      <p class="invite">
        Link (shown once): <a href={link}>{link}</a>{' '}
        <button type="button" onClick={() => void navigator.clipboard?.writeText(link)}>
          Copy
        </button>
      </p>
      <div
        class="qr"
        role="img"
        aria-label={`QR code of the new link for ${title}: scan it with ${holder}`}
        // uqr's own SVG of the address: no text of anyone's in it but the link itself.
        dangerouslySetInnerHTML={{ __html: svg }}
      />
      {older > 0 && (
        <p>
          {older === 1 ? 'An older link' : `${older} older links`} of this seat still open the
          table.{' '}
          <button type="button" onClick={onRevokeOlder}>
            Revoke the older {older === 1 ? 'link' : 'links'}
          </button>
        </p>
      )}
    </div>
  );
}
