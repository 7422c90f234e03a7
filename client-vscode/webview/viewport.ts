/**
 * Zoom and pan of the drawn graph. The SVG fills its frame and the view is
 * its `viewBox`: a scale (screen pixels per graph unit) and an offset, so text
 * stays sharp at any zoom and nothing is laid out again.
 *
 * Fit: the whole graph in the frame, centred, never magnified past 2× and
 * never below the readable scale (`viewMath.READABLE_SCALE`): a larger graph
 * opens readable at its top left corner, and the rest is scrolled to.
 * On a resize the view fits again unless the user zoomed or panned since
 * (then it keeps its scale and centre). A saved view (the script's last one)
 * is restored as it was. Mouse: the wheel scrolls (Shift: sideways), Ctrl or
 * Cmd with the wheel (a trackpad's pinch) zooms around the pointer, a drag
 * pans. Keys on the frame: + and - zoom, arrows pan, 0 fits, 1 is 100 %.
 */

import { fitView, zoomAt, type Size, type View } from './viewMath';

const ZOOM_STEP = 1.25;
const PAN_STEP = 60;

export class Viewport {
  private view: View = { scale: 1, x: 0, y: 0 };
  private graphSize: Size;
  /** True until the user zooms or pans: a resize fits again. */
  private fitted = true;
  private readonly observer: ResizeObserver;
  private drag: { id: number; x: number; y: number; moved: boolean } | undefined;

  constructor(
    private readonly frame: HTMLElement,
    private readonly svg: SVGSVGElement,
    private readonly onChange: (view: View, fitted: boolean) => void = () => undefined,
    initial?: View,
  ) {
    // Graphviz's own viewBox is the drawing's size in points.
    const box = svg.viewBox.baseVal;
    this.graphSize = box && box.width > 0 ? { width: box.width, height: box.height } : { width: 100, height: 100 };
    this.originX = box?.x ?? 0;
    this.originY = box?.y ?? 0;
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('preserveAspectRatio', 'xMinYMin meet');
    this.observer = new ResizeObserver(() => (this.fitted ? this.fit() : this.apply()));
    this.observer.observe(frame);
    frame.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    frame.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    frame.addEventListener('pointermove', (e) => this.onPointerMove(e));
    frame.addEventListener('pointerup', (e) => this.onPointerUp(e));
    frame.addEventListener('pointercancel', () => (this.drag = undefined));
    // A click that ends a drag must not open a call site.
    frame.addEventListener('click', (e) => this.swallowDragClick(e), true);
    frame.addEventListener('keydown', (e) => this.onKey(e));
    if (initial) {
      this.set(initial);
    } else {
      this.fit();
    }
  }

  private readonly originX: number;
  private readonly originY: number;
  private draggedAt = 0;

  get current(): View {
    return { ...this.view };
  }

  get isFitted(): boolean {
    return this.fitted;
  }

  dispose(): void {
    this.observer.disconnect();
  }

  fit(): void {
    this.fitted = true;
    this.view = fitView(this.graphSize, this.frameSize());
    this.apply();
  }

  zoom(factor: number, px?: number, py?: number): void {
    const size = this.frameSize();
    this.set(zoomAt(this.view, factor, px ?? size.width / 2, py ?? size.height / 2));
  }

  zoomIn(): void {
    this.zoom(ZOOM_STEP);
  }

  zoomOut(): void {
    this.zoom(1 / ZOOM_STEP);
  }

  /** 100 %: one graph point per screen pixel, around the frame's centre. */
  actualSize(): void {
    this.zoom(1 / this.view.scale);
  }

  pan(dx: number, dy: number): void {
    this.set({ ...this.view, x: this.view.x + dx, y: this.view.y + dy });
  }

  /** Pan so that an element of the drawing (a focused node) is inside the frame. */
  reveal(element: Element): void {
    const frame = this.frame.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    const left = box.left - frame.left;
    const top = box.top - frame.top;
    let dx = 0;
    let dy = 0;
    if (left < 0 || left + box.width > frame.width) {
      dx = frame.width / 2 - (left + box.width / 2);
    }
    if (top < 0 || top + box.height > frame.height) {
      dy = frame.height / 2 - (top + box.height / 2);
    }
    if (dx || dy) {
      this.pan(dx, dy);
    }
  }

  private set(view: View): void {
    this.fitted = false;
    this.view = view;
    this.apply();
  }

  private frameSize(): Size {
    return { width: this.frame.clientWidth, height: this.frame.clientHeight };
  }

  private apply(): void {
    const { width, height } = this.frameSize();
    const s = this.view.scale;
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(height));
    this.svg.setAttribute('viewBox', `${this.originX - this.view.x / s} ${this.originY - this.view.y / s} ${width / s} ${height / s}`);
    this.frame.dataset.scale = String(s);
    this.frame.dataset.fitted = String(this.fitted);
    this.onChange(this.current, this.fitted);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? this.frame.clientHeight : 1;
    if (!(e.ctrlKey || e.metaKey)) {
      // Scroll: the wheel moves the drawing as a page scrolls (Shift: sideways).
      const dx = (e.shiftKey && !e.deltaX ? e.deltaY : e.deltaX) * unit;
      const dy = (e.shiftKey && !e.deltaX ? 0 : e.deltaY) * unit;
      this.pan(-dx, -dy);
      return;
    }
    const rect = this.frame.getBoundingClientRect();
    // Trackpads send many small deltas, wheels a few large ones: zoom by the distance.
    const factor = Math.exp(-Math.max(-300, Math.min(300, e.deltaY * unit)) / 300);
    this.zoom(factor, e.clientX - rect.left, e.clientY - rect.top);
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) {
      return;
    }
    this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
  }

  private onPointerMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) {
      return;
    }
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < 4) {
      return; // a click, not yet a drag
    }
    if (!d.moved) {
      d.moved = true;
      this.frame.setPointerCapture?.(e.pointerId);
      this.frame.classList.add('tw-dragging');
    }
    d.x = e.clientX;
    d.y = e.clientY;
    this.pan(dx, dy);
  }

  private onPointerUp(e: PointerEvent): void {
    if (this.drag?.moved) {
      this.draggedAt = e.timeStamp;
    }
    this.drag = undefined;
    this.frame.classList.remove('tw-dragging');
  }

  private swallowDragClick(e: MouseEvent): void {
    if (this.draggedAt && e.timeStamp - this.draggedAt < 300) {
      e.stopPropagation();
      e.preventDefault();
    }
    this.draggedAt = 0;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target !== this.frame && !(e.key === '+' || e.key === '=' || e.key === '-' || e.key === '0' || e.key === '1')) {
      return; // arrows on a focused node move between nodes (main.ts)
    }
    const pans: Record<string, [number, number]> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    if (e.key === '+' || e.key === '=') {
      this.zoomIn();
    } else if (e.key === '-') {
      this.zoomOut();
    } else if (e.key === '0') {
      this.fit();
    } else if (e.key === '1') {
      this.actualSize();
    } else if (pans[e.key]) {
      this.pan(...pans[e.key]);
    } else {
      return;
    }
    e.preventDefault();
  }
}
