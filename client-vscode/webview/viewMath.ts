/** The arithmetic of zoom and fit (viewport.ts), pure so the unit tests run it without a browser. */

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

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

/** The view that shows all of a `graph`-sized drawing in a `frame`, centred. Pure. */
export function fitView(graph: Size, frame: Size, margin = 12): View {
  const w = Math.max(1, frame.width - 2 * margin);
  const h = Math.max(1, frame.height - 2 * margin);
  const scale = clampScale(Math.min(w / Math.max(1, graph.width), h / Math.max(1, graph.height), MAX_FIT_SCALE));
  return { scale, x: (frame.width - graph.width * scale) / 2, y: (frame.height - graph.height * scale) / 2 };
}

/** Zoom by `factor` keeping the screen point (`px`, `py`) fixed. Pure. */
export function zoomAt(view: View, factor: number, px: number, py: number): View {
  const scale = clampScale(view.scale * factor);
  const k = scale / view.scale;
  return { scale, x: px - (px - view.x) * k, y: py - (py - view.y) * k };
}
