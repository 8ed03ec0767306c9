import { useRef, useState } from 'preact/hooks';

/** Past this many px a press on a marker is a drag; short of it, a click that picks it. */
const DRAG_PX = 6;

/**
 * The GM moves a combatant on a clock drawing: drag its marker to a value, or click it (it is
 * then picked) and click where it goes. `valueAt` reads a value off an x in the drawing's px;
 * without `onMove` (a player's screen) nothing is picked or dragged.
 */
export function useClockMove(
  valueAt: (x: number) => number,
  onMove: ((id: string, value: number) => void) | undefined,
) {
  const svg = useRef<SVGSVGElement>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [drag, setDrag] = useState<{ id: string; from: number; x: number } | null>(null);
  const xOf = (e: PointerEvent) => e.clientX - (svg.current?.getBoundingClientRect().left ?? 0);
  const grab = (id: string) => (e: PointerEvent) => {
    if (onMove === undefined) return;
    e.stopPropagation();
    e.preventDefault();
    svg.current?.setPointerCapture?.(e.pointerId);
    const x = xOf(e);
    setDrag({ id, from: x, x });
  };
  const handlers =
    onMove === undefined
      ? {}
      : {
          onPointerMove: (e: PointerEvent) => {
            if (drag !== null) setDrag({ ...drag, x: xOf(e) });
          },
          onPointerUp: (e: PointerEvent) => {
            const x = xOf(e);
            if (drag !== null) {
              if (Math.abs(x - drag.from) > DRAG_PX) {
                onMove(drag.id, valueAt(x));
                setPicked(null);
              } else {
                setPicked(picked === drag.id ? null : drag.id);
              }
              setDrag(null);
            } else if (picked !== null) {
              onMove(picked, valueAt(x));
              setPicked(null);
            }
          },
          onPointerCancel: () => setDrag(null),
        };
  return { svg, picked, setPicked, drag, grab, handlers };
}
