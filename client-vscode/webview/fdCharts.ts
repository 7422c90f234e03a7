/**
 * Pictures of finite-difference results, drawn as SVG in the page (no
 * images, nothing loaded: the page's CSP stays as it is). The model is the
 * seed workflow's `plot_relative_error` (error per element, worst marked) and
 * `jacobian_plot` (AD, FD and their difference): a launch check's compared
 * derivatives as a grid per (output, input) pair, a column per element and
 * rows AD, FD, |AD − FD| coloured by value (the scales are `fdModel.ts`'s);
 * from a server that sent only the worst derivative, a three-bar panel that
 * says so. Colours are classes plus a `fill-opacity` attribute (the hue comes
 * from the theme's CSS, no inline style). Numbers on hover are SVG <title>s;
 * text goes in as textContent.
 */

import {
  cotangentText,
  disagreeing,
  errorBars,
  fmt,
  jacobianPanels,
  logAxis,
  type ErrorScale,
  type HarnessEvidence,
  type JacobianCell,
  type JacobianPanel,
  type LaunchEvidence,
} from './fdModel';

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgEl<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    el.setAttribute(k, String(v));
  }
  if (text !== undefined) {
    el.textContent = text;
  }
  return el;
}

function titled<T extends SVGElement>(el: T, text: string): T {
  el.appendChild(svgEl('title', {}, text));
  return el;
}

function html<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) {
    el.textContent = text;
  }
  return el;
}

const VERDICT: Record<string, string> = { TW400: 'PASS', TW401: 'FAIL', TW402: 'FAIL (integer ratio)', TW409: 'INCONCLUSIVE' };

/** Per parameter: a bar per sampled element, its error on a log axis; failing bars red, the worst one labelled. */
export function harnessChart(ev: HarnessEvidence, scale: ErrorScale): HTMLElement {
  const figure = html('figure', `tw-fd tw-fd-harness tw-fd-${ev.finding.code.toLowerCase()}`);
  figure.dataset.findingId = ev.finding.id;
  const bars = errorBars(ev.samples, scale);
  const failed = bars.filter((b) => !b.ok).length;
  const caption = html('figcaption', 'tw-fd-caption');
  caption.append(
    html('strong', '', `${ev.parameter}`),
    ` — ${ev.finding.code} ${VERDICT[ev.finding.code] ?? ''}: ${scale === 'abs' ? '|AD − FD|' : 'relative error'} per sampled element, ` +
      `${failed} of ${bars.length} outside tolerance` +
      (ev.ratio !== null ? `, median AD/FD ${fmt(ev.ratio)}` : ''),
  );

  const W = 320;
  const H = 150;
  const pad = { left: 44, right: 8, top: 14, bottom: 22 };
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const axis = logAxis(bars.map((b) => b.value));
  const svg = svgEl('svg', { class: 'tw-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${ev.parameter}: FD error per element` });
  // Decades on the left, with a faint grid line each.
  for (const e of axis.ticks) {
    const y = pad.top + plotH * (1 - axis.y(10 ** e));
    svg.appendChild(svgEl('line', { class: 'tw-grid', x1: pad.left, x2: W - pad.right, y1: y, y2: y }));
    svg.appendChild(svgEl('text', { class: 'tw-tick', x: pad.left - 4, y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, `1e${e}`));
  }
  const slot = plotW / bars.length;
  const barW = Math.max(1, Math.min(18, slot * 0.8));
  bars.forEach((b, i) => {
    const h = b.value === null ? plotH : Math.max(1, plotH * axis.y(b.value));
    const x = pad.left + i * slot + (slot - barW) / 2;
    const cls = ['tw-bar', b.ok ? 'tw-ok' : 'tw-fail', b.value === null ? 'tw-nonfinite' : '', b.worst ? 'tw-worst' : ''].filter(Boolean).join(' ');
    const g = titled(svgEl('g', { class: cls, 'data-element': b.element }), b.title);
    g.appendChild(svgEl('rect', { x, y: pad.top + plotH - h, width: barW, height: h }));
    if (!b.ok) {
      // A failing element is marked above its bar, so it shows even when the bar is short.
      g.appendChild(svgEl('text', { class: 'tw-mark', x: x + barW / 2, y: pad.top + plotH - h - 3, 'text-anchor': 'middle' }, '✖'));
    }
    svg.appendChild(g);
    if (b.worst) {
      svg.appendChild(svgEl('text', { class: 'tw-worst-label', x: x + barW / 2, y: H - 4, 'text-anchor': 'middle' }, `worst: ${b.element}`));
    }
  });
  svg.appendChild(svgEl('line', { class: 'tw-axis', x1: pad.left, x2: W - pad.right, y1: pad.top + plotH, y2: pad.top + plotH }));
  figure.append(caption, svg);
  return figure;
}

/** A launch check's worst derivative (a server that sent no samples): AD, FD and their difference as signed bars around zero. */
export function launchPanel(ev: LaunchEvidence): HTMLElement {
  const figure = html('figure', 'tw-fd tw-fd-launch');
  figure.dataset.findingId = ev.finding.id;
  const at = ev.element !== null ? `[${ev.element}]` : '';
  const caption = html('figcaption', 'tw-fd-caption');
  caption.append(
    html('strong', '', `${ev.kernel || 'launch'}: d${ev.output}/d${ev.input}${at}`),
    ` — TW404, the worst of ${ev.checked ?? '?'} derivatives compared (${ev.failed ?? '?'} fail).`,
  );
  const diff = ev.ad !== null && ev.fd !== null ? ev.ad - ev.fd : null;
  const rows: [string, number | null, string][] = [
    ['AD', ev.ad, 'tw-ad'],
    ['FD', ev.fd, 'tw-fdv'],
    ['AD − FD', diff, 'tw-diff'],
  ];
  const W = 320;
  const rowH = 22;
  const H = rows.length * rowH + 8;
  const left = 64;
  const right = W - 70;
  const mid = (left + right) / 2;
  const span = Math.max(1e-30, ...rows.map(([, v]) => (v === null ? 0 : Math.abs(v))));
  const svg = svgEl('svg', { class: 'tw-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'AD, FD and their difference' });
  svg.appendChild(svgEl('line', { class: 'tw-axis', x1: mid, x2: mid, y1: 2, y2: H - 2 }));
  rows.forEach(([name, v, cls], i) => {
    const y = 4 + i * rowH;
    const g = titled(svgEl('g', { class: `tw-bar ${cls}` }), `${name}: ${fmt(v)}${name === 'AD − FD' && ev.maxAbs !== null ? ` (max abs error ${fmt(ev.maxAbs)})` : ''}`);
    g.appendChild(svgEl('text', { class: 'tw-tick', x: left - 6, y: y + rowH / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, name));
    const w = v === null ? 0 : ((right - left) / 2) * (Math.abs(v) / span);
    g.appendChild(svgEl('rect', { x: v !== null && v < 0 ? mid - w : mid, y: y + 3, width: Math.max(1, w), height: rowH - 8 }));
    g.appendChild(svgEl('text', { class: 'tw-value', x: right + 6, y: y + rowH / 2, 'dominant-baseline': 'middle' }, fmt(v)));
    svg.appendChild(g);
  });
  figure.append(caption, svg, html('p', 'tw-fd-note', 'The launch check reports its worst derivative only: a full Jacobian (every output against every input) is not available here.'));
  return figure;
}

/** A launch check's compared derivatives: one Jacobian grid per (output, input) pair. */
export function jacobianFigure(ev: LaunchEvidence): HTMLElement {
  const figure = html('figure', 'tw-fd tw-fd-launch tw-fd-jacobian');
  figure.dataset.findingId = ev.finding.id;
  const panels = jacobianPanels(ev);
  const shown = ev.samples.length;
  const checked = ev.checked ?? shown;
  const failed = ev.failed ?? panels.reduce((n, p) => n + p.failed, 0);
  const caption = html('figcaption', 'tw-fd-caption');
  caption.append(
    html('strong', '', ev.kernel || 'launch'),
    ` — TW404 launch check: ${checked} derivative${checked === 1 ? '' : 's'} compared${checked > shown ? ` (${shown} shown)` : ''}, ${disagreeing(failed)}. ` +
      `Per output and input array, AD, FD and |AD − FD| for each compared input element. ${cotangentText(ev.cotangent)}.`,
  );
  figure.appendChild(caption);
  for (const panel of panels) {
    const box = html('div', 'tw-jac');
    box.append(html('p', 'tw-jac-title', panel.summary), jacobianSvg(panel));
    figure.appendChild(box);
  }
  return figure;
}

const ROWS: [string, 'ad' | 'fd' | 'diff'][] = [
  ['AD', 'ad'],
  ['FD', 'fd'],
  ['|AD − FD|', 'diff'],
];

function cellRect(cell: JacobianCell, row: string, attrs: Record<string, number>, title: string): SVGRectElement {
  const rect = svgEl('rect', { class: `tw-cell tw-row-${row} tw-tone-${cell.tone}`, ...attrs, 'fill-opacity': Number(cell.alpha.toFixed(3)) });
  return titled(rect, title);
}

/** Rows AD, FD, |AD − FD|; a column per element, wrapped into bands that fit the panel; the scales below. */
function jacobianSvg(panel: JacobianPanel): SVGSVGElement {
  const labelW = 60;
  const chars = Math.max(...panel.columns.map((c) => String(c.element).length));
  const cellW = Math.min(44, Math.max(22, chars * 6 + 6));
  const perBand = Math.max(1, Math.floor((320 - labelW - 4) / cellW));
  const bands = Math.ceil(panel.columns.length / perBand);
  const markH = 11;
  const indexH = 12;
  const cellH = 18;
  const bandH = markH + indexH + ROWS.length * cellH + 8;
  const legendH = 30;
  const W = Math.max(labelW + Math.min(panel.columns.length, perBand) * cellW + 4, 250);
  const H = bands * bandH + legendH;
  const svg = svgEl('svg', { class: 'tw-chart tw-jacobian', width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': panel.summary });
  for (let b = 0; b < bands; b++) {
    const top = b * bandH;
    const cellsTop = top + markH + indexH;
    ROWS.forEach(([name], r) => {
      svg.appendChild(svgEl('text', { class: 'tw-tick', x: labelW - 4, y: cellsTop + r * cellH + cellH / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, name));
    });
    panel.columns.slice(b * perBand, (b + 1) * perBand).forEach((c, i) => {
      const x = labelW + i * cellW;
      const cls = ['tw-jcol', c.ok ? 'tw-ok' : 'tw-fail', c.worst ? 'tw-worst' : ''].filter(Boolean).join(' ');
      const g = svgEl('g', { class: cls, 'data-element': c.element });
      g.appendChild(svgEl('text', { class: 'tw-col-label', x: x + cellW / 2, y: top + markH + indexH / 2, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, String(c.element)));
      ROWS.forEach(([, key], r) => {
        g.appendChild(cellRect(c[key], key, { x: x + 1, y: cellsTop + r * cellH + 1, width: cellW - 2, height: cellH - 2 }, c.title));
      });
      if (!c.ok) {
        // A disagreeing element: its column outlined and marked above, whatever its colours.
        g.appendChild(svgEl('rect', { class: 'tw-fail-box', x: x + 0.5, y: cellsTop + 0.5, width: cellW - 1, height: ROWS.length * cellH - 1 }));
        g.appendChild(titled(svgEl('text', { class: 'tw-mark', x: x + cellW / 2, y: top + markH - 2, 'text-anchor': 'middle' }, '✖'), c.title));
      }
      svg.appendChild(g);
    });
  }
  // The two scales, as swatches with their ends in numbers.
  const legendTop = bands * bandH;
  const swatch = 10;
  const ramp = (y: number, cells: JacobianCell[], row: string, label: string) => {
    cells.forEach((cell, i) => svg.appendChild(svgEl('rect', { class: `tw-key tw-row-${row} tw-tone-${cell.tone}`, x: 4 + i * swatch, y, width: swatch, height: swatch, 'fill-opacity': cell.alpha })));
    svg.appendChild(svgEl('text', { class: 'tw-tick tw-legend-text', x: 4 + 5 * swatch + 6, y: y + swatch / 2, 'dominant-baseline': 'middle' }, label));
  };
  const s = panel.span;
  ramp(
    legendTop + 2,
    [-1, -0.5, 0, 0.5, 1].map((f) => ({ value: f * s, tone: f < 0 ? 'neg' : f > 0 ? 'pos' : 'zero', alpha: Math.abs(f) })),
    'ad',
    `AD, FD: ${fmt(-s)} … 0 … ${fmt(s)}`,
  );
  ramp(
    legendTop + 16,
    [0, 0.25, 0.5, 0.75, 1].map((f) => ({ value: f * panel.diffSpan, tone: f > 0 ? 'pos' : 'zero', alpha: f })),
    'diff',
    `|AD − FD|: 0 … ${fmt(panel.diffSpan)}`,
  );
  return svg;
}
