/**
 * Arrow keys between the graph's nodes: from the focused node to the nearest
 * one in that direction, by the centres of their boxes on screen. Pure.
 */

export type Direction = 'left' | 'right' | 'up' | 'down';

export interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export const ARROWS: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

/**
 * The node to move to, or undefined at the edge of the drawing. Only nodes
 * whose centre lies beyond the current centre in `dir` count; among them the
 * nearest along the axis wins, with sideways distance weighing double, so
 * the move follows a row or column before it jumps to another.
 */
export function nearestInDirection(from: Box, boxes: Box[], dir: Direction): string | undefined {
  const cx = from.x + from.width / 2;
  const cy = from.y + from.height / 2;
  let best: { id: string; score: number } | undefined;
  for (const b of boxes) {
    if (b.id === from.id) {
      continue;
    }
    const dx = b.x + b.width / 2 - cx;
    const dy = b.y + b.height / 2 - cy;
    const along = dir === 'right' ? dx : dir === 'left' ? -dx : dir === 'down' ? dy : -dy;
    const across = dir === 'left' || dir === 'right' ? Math.abs(dy) : Math.abs(dx);
    if (along <= 1) {
      continue;
    }
    const score = along + 2 * across;
    if (!best || score < best.score) {
      best = { id: b.id, score };
    }
  }
  return best?.id;
}
