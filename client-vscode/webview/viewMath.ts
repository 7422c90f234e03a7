/** The arithmetic of zoom, fit and layout choice (viewport.ts, main.ts), pure so the unit tests run it without a browser. */

export interface View {
  scale: number;
  /** Screen position (px, in the frame) of the graph's origin. */
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export const MIN_SCALE = 0.05;
export const MAX_SCALE = 8;
const MAX_FIT_SCALE = 2;
/**
 * The smallest scale a fit goes down to: Graphviz draws labels 14 points tall, so
 * at 0.75 they are about 10 px, the smallest text that still reads. A graph
 * that would fit only smaller opens at this scale, and the user scrolls.
 */
export const READABLE_SCALE = 0.75;

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

/** The scale at which all of a `graph`-sized drawing fits a `frame` (before any clamp). */
export function fitScale(graph: Size, frame: Size, margin = 12): number {
  const w = Math.max(1, frame.width - 2 * margin);
  const h = Math.max(1, frame.height - 2 * margin);
  return Math.min(w / Math.max(1, graph.width), h / Math.max(1, graph.height));
}

/**
 * The view a graph opens at: all of it, centred, never magnified past 2x and
 * never below `READABLE_SCALE`. Past that the drawing starts at its top left
 * corner (centred along an axis where it does fit) and the rest is scrolled to.
 */
export function fitView(graph: Size, frame: Size, margin = 12, readable = READABLE_SCALE): View {
  const scale = clampScale(Math.max(readable, Math.min(fitScale(graph, frame, margin), MAX_FIT_SCALE)));
  const place = (frameLength: number, graphLength: number) => {
    const free = frameLength - graphLength * scale;
    return free >= 2 * margin ? free / 2 : margin;
  };
  return { scale, x: place(frame.width, graph.width), y: place(frame.height, graph.height) };
}

/** Whether the view shows the whole drawing (a fit that did not need the readable floor). */
export function showsAll(graph: Size, frame: Size, margin = 12): boolean {
  return fitScale(graph, frame, margin) >= READABLE_SCALE;
}

/**
 * The layout to draw with when the user left it to the panel: whichever of
 * left-to-right and top-to-bottom fits the frame at the larger scale; a tie
 * (both past the 2x cap) goes to the one that matches the frame's shape.
 */
export function chooseDirection(sizes: { LR: Size; TB: Size }, frame: Size): 'LR' | 'TB' {
  const lr = Math.min(fitScale(sizes.LR, frame), MAX_FIT_SCALE);
  const tb = Math.min(fitScale(sizes.TB, frame), MAX_FIT_SCALE);
  if (Math.abs(lr - tb) < 1e-6) {
    return frame.height > frame.width ? 'TB' : 'LR';
  }
  return lr > tb ? 'LR' : 'TB';
}

/** Without drawing both (a large graph): the layout that matches the frame's shape. */
export function directionForShape(frame: Size): 'LR' | 'TB' {
  return frame.height > frame.width ? 'TB' : 'LR';
}

/** Zoom by `factor` keeping the screen point (`px`, `py`) fixed. Pure. */
export function zoomAt(view: View, factor: number, px: number, py: number): View {
  const scale = clampScale(view.scale * factor);
  const k = scale / view.scale;
  return { scale, x: px - (px - view.x) * k, y: py - (py - view.y) * k };
}

/** A view read back from saved state; anything malformed is undefined. */
export function parseView(value: unknown): View | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const v = value as Record<string, unknown>;
  const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  if (!num(v.scale) || !num(v.x) || !num(v.y)) {
    return undefined;
  }
  return { scale: clampScale(v.scale as number), x: v.x as number, y: v.y as number };
}
