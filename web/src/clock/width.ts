import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * The clocks are drawn one SVG unit to one CSS pixel, at the width their panel has: a drawing
 * scaled down to a phone would shrink its labels below reading size (13 px became 6 px at 375).
 */
export function useWidth<T extends Element>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

let canvas: CanvasRenderingContext2D | null | undefined;

/**
 * How wide `text` is drawn at `size` px in the page's font: labels are placed where they fit
 * from their real width, not from a guess per character that a wide font overruns.
 */
export function textWidth(text: string, size: number): number {
  if (canvas === undefined) canvas = document.createElement('canvas').getContext('2d');
  if (canvas === null) return text.length * size * 0.62;
  canvas.font = `${size}px ${getComputedStyle(document.body).fontFamily}`;
  return canvas.measureText(text).width;
}

/** A fingertip's target, in CSS px (WCAG 2.5.5): what the GM touches on a clock drawing. */
export const FINGER_PX = 44;

/** A phone's width or a touch screen: style.css's query for fingertip-sized targets too. */
const FINGERS = '(max-width: 600px), (pointer: coarse)';

/**
 * Whether the drawings' targets are sized for a fingertip: the clocks' markers and rows are
 * drawn in script, where style.css's media query cannot reach them. A mouse on a laptop keeps
 * the compact drawing.
 */
export function useFingertips(): boolean {
  const [on, setOn] = useState(() => matchMedia(FINGERS).matches);
  useEffect(() => {
    const query = matchMedia(FINGERS);
    const update = () => setOn(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return on;
}
