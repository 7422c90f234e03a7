/**
 * The numbers behind the finite-difference pictures, from findings' `data`
 * (docs/protocol.md): per FD harness verdict (TW400/401/402/409) every
 * sampled element's AD and FD; per launch check (TW404) its worst derivative
 * and, from newer servers, every compared derivative (`samples`, up to 64) with
 * the `cotangent` they were projected on, grouped here into one Jacobian
 * picture per (output, input) pair. Pure (no DOM): parsed defensively, since
 * `data` is whatever the server sent.
 */

import type { Finding } from '../shared/protocol';

export interface FdSample {
  element: number;
  /** null: not finite. */
  ad: number | null;
  fd: number | null;
  ok: boolean;
}

export interface HarnessEvidence {
  kind: 'harness';
  finding: Finding;
  parameter: string;
  samples: FdSample[];
  maxAbs: number | null;
  maxRel: number | null;
  ratio: number | null;
}

/** One compared derivative of a launch check: d output / d input[element] (or its projection). */
export interface LaunchSample extends FdSample {
  input: string;
  output: string;
}

/**
 * How the launch check seeded the outputs' adjoints: `ones`, each value is
 * d output / d input[element]; `random`, the derivative of the output
 * projected on a random direction. null: the server did not say.
 */
export type Cotangent = 'ones' | 'random';

export interface LaunchEvidence {
  kind: 'launch';
  finding: Finding;
  kernel: string;
  input: string;
  output: string;
  element: number | null;
  ad: number | null;
  fd: number | null;
  maxAbs: number | null;
  checked: number | null;
  failed: number | null;
  /** Every compared derivative the server sent; empty from older servers (then only the worst is drawn). */
  samples: LaunchSample[];
  cotangent: Cotangent | null;
}

export type FdEvidence = HarnessEvidence | LaunchEvidence;

export const HARNESS_CODES = ['TW400', 'TW401', 'TW402', 'TW409'];

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function parseSample(v: unknown): FdSample | undefined {
  if (typeof v !== 'object' || v === null) {
    return undefined;
  }
  const s = v as Record<string, unknown>;
  if (typeof s.element !== 'number' || !Number.isInteger(s.element)) {
    return undefined;
  }
  return { element: s.element, ad: num(s.ad), fd: num(s.fd), ok: s.ok === true };
}

function parseLaunchSample(v: unknown, input: string, output: string): LaunchSample | undefined {
  const s = parseSample(v);
  if (!s) {
    return undefined;
  }
  const r = v as Record<string, unknown>;
  return { input: text(r.input) || input, output: text(r.output) || output, ...s };
}

/** The picture's numbers for a finding, or undefined when it has none. */
export function fdEvidence(f: Finding): FdEvidence | undefined {
  const d = f.data;
  if (HARNESS_CODES.includes(f.code) && Array.isArray(d.samples)) {
    const samples = d.samples.map(parseSample).filter((s): s is FdSample => s !== undefined);
    if (!samples.length) {
      return undefined;
    }
    return { kind: 'harness', finding: f, parameter: text(d.parameter) || '?', samples, maxAbs: num(d.max_abs_error), maxRel: num(d.max_rel_error), ratio: num(d.ratio) };
  }
  const samples = f.code === 'TW404' && Array.isArray(d.samples) ? d.samples : [];
  if (f.code === 'TW404' && (num(d.ad) !== null || num(d.fd) !== null || samples.length)) {
    const input = text(d.input) || '?';
    const output = text(d.output) || '?';
    const parsed = samples.map((s) => parseLaunchSample(s, input, output)).filter((s): s is LaunchSample => s !== undefined);
    if (!parsed.length && num(d.ad) === null && num(d.fd) === null) {
      return undefined;
    }
    return {
      kind: 'launch',
      finding: f,
      kernel: text(d.kernel),
      input,
      output,
      element: typeof d.element === 'number' && Number.isInteger(d.element) ? d.element : null,
      ad: num(d.ad),
      fd: num(d.fd),
      maxAbs: num(d.max_abs_error),
      checked: num(d.checked),
      failed: num(d.failed),
      samples: parsed,
      cotangent: d.cotangent === 'ones' || d.cotangent === 'random' ? d.cotangent : null,
    };
  }
  return undefined;
}

export type ErrorScale = 'abs' | 'rel';

export interface ErrorBar {
  element: number;
  /** |AD−FD| or the relative error; null when AD or FD is not finite. */
  value: number | null;
  ok: boolean;
  worst: boolean;
  /** The hover text (an SVG <title>). */
  title: string;
}

/** Relative error as the harness computes it: |AD−FD| / max(|FD|, 1e-8). */
export function relativeError(ad: number, fd: number): number {
  return Math.abs(ad - fd) / Math.max(Math.abs(fd), 1e-8);
}

export function fmt(v: number | null): string {
  if (v === null) {
    return 'not finite';
  }
  return v === 0 ? '0' : Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4 ? String(Number(v.toPrecision(4))) : v.toExponential(2);
}

/** One bar per sampled element, in element order; the largest error is `worst`. */
export function errorBars(samples: FdSample[], scale: ErrorScale): ErrorBar[] {
  const bars = [...samples]
    .sort((a, b) => a.element - b.element)
    .map((s): ErrorBar => {
      const finite = s.ad !== null && s.fd !== null;
      const abs = finite ? Math.abs(s.ad! - s.fd!) : null;
      const rel = finite ? relativeError(s.ad!, s.fd!) : null;
      const title = `element ${s.element}: AD ${fmt(s.ad)}, FD ${fmt(s.fd)}, |AD−FD| ${fmt(abs)}, relative ${fmt(rel)}${s.ok ? '' : ' — outside tolerance'}`;
      return { element: s.element, value: scale === 'abs' ? abs : rel, ok: s.ok, worst: false, title };
    });
  // A value that is not finite is the worst there is; else the largest error.
  let worst = bars.find((b) => b.value === null);
  for (const b of worst ? [] : bars) {
    if (!worst || b.value! > worst.value!) {
      worst = b;
    }
  }
  if (worst) {
    worst.worst = true;
  }
  return bars;
}

/**
 * The vertical axis: logarithmic (errors span decades: a passing element is
 * 1e-7, a failing one 0.5) from the decade below the smallest non-zero value
 * to the decade above the largest. Returns the height fraction of a value.
 */
export function logAxis(values: (number | null)[]): { lo: number; hi: number; ticks: number[]; y: (v: number | null) => number } {
  const pos = values.filter((v): v is number => v !== null && v > 0);
  const lo = pos.length ? Math.floor(Math.log10(Math.min(...pos))) + 0 : -8;
  let hi = pos.length ? Math.ceil(Math.log10(Math.max(...pos))) + 0 : 0; // + 0: no "1e-0" tick
  if (hi <= lo) {
    hi = lo + 1;
  }
  const ticks: number[] = [];
  const step = Math.max(1, Math.ceil((hi - lo) / 5));
  for (let e = lo; e <= hi; e += step) {
    ticks.push(e);
  }
  const y = (v: number | null): number => (v === null ? 1 : v <= 0 ? 0 : Math.min(1, Math.max(0, (Math.log10(v) - lo) / (hi - lo))));
  return { lo, hi, ticks, y };
}

/** Seven significant digits (what a float32 holds), for the hover text of a Jacobian cell. */
export function fmtPrecise(v: number | null): string {
  if (v === null) {
    return 'not finite';
  }
  return v === 0 ? '0' : String(Number(v.toPrecision(7)));
}

/** `pos`/`neg`: a signed value's hue on the diverging scale; `zero`: no colour; `nonfinite`: no number. */
export type CellTone = 'pos' | 'neg' | 'zero' | 'nonfinite';

export interface JacobianCell {
  value: number | null;
  tone: CellTone;
  /** The colour's strength on its scale, 0 (none) to 1 (the end of the scale). */
  alpha: number;
}

/** One compared element of one (output, input) pair: a column of three cells. */
export interface JacobianColumn {
  element: number;
  ok: boolean;
  /** The derivative the finding's message names (its largest disagreement). */
  worst: boolean;
  ad: JacobianCell;
  fd: JacobianCell;
  /** |AD − FD|. */
  diff: JacobianCell;
  /** The hover text (an SVG <title>), the same on the column's three cells. */
  title: string;
}

export interface JacobianPanel {
  input: string;
  output: string;
  /** In element order. */
  columns: JacobianColumn[];
  failed: number;
  /** The diverging scale the AD and FD rows share: −span … 0 … +span. */
  span: number;
  /** The sequential scale of |AD − FD|: 0 … diffSpan (never below span: rounding noise stays pale). */
  diffSpan: number;
  /** What the picture shows, in words (its aria-label). */
  summary: string;
}

const strength = (v: number, top: number): number => (top > 0 ? Math.min(1, Math.abs(v) / top) : 0);

/** A signed value on the diverging scale −span … +span. */
export function divergingCell(value: number | null, span: number): JacobianCell {
  if (value === null) {
    return { value, tone: 'nonfinite', alpha: 0 };
  }
  const alpha = strength(value, span);
  return { value, tone: alpha === 0 ? 'zero' : value < 0 ? 'neg' : 'pos', alpha };
}

/** A magnitude on the sequential scale 0 … top. */
export function sequentialCell(value: number | null, top: number): JacobianCell {
  if (value === null) {
    return { value, tone: 'nonfinite', alpha: 0 };
  }
  const alpha = strength(value, top);
  return { value, tone: alpha === 0 ? 'zero' : 'pos', alpha };
}

/** "none disagrees", "1 disagrees", "3 disagree". */
export function disagreeing(n: number): string {
  return n === 0 ? 'none disagrees' : n === 1 ? '1 disagrees' : `${n} disagree`;
}

/**
 * The launch check's samples as one Jacobian picture per (output, input)
 * pair, after `jacobian_plot`: a column per compared input element, its AD
 * and FD on a diverging scale shared by the two rows, |AD − FD| on a
 * sequential one. Pairs with a disagreement come first, else in the order
 * the server compared them.
 */
export function jacobianPanels(ev: LaunchEvidence): JacobianPanel[] {
  const groups = new Map<string, LaunchSample[]>();
  for (const s of ev.samples) {
    const key = JSON.stringify([s.output, s.input]);
    const list = groups.get(key);
    if (list) {
      list.push(s);
    } else {
      groups.set(key, [s]);
    }
  }
  const panels = [...groups.values()].map((samples): JacobianPanel => {
    const { input, output } = samples[0];
    const sorted = [...samples].sort((a, b) => a.element - b.element);
    const diffs = sorted.map((s) => (s.ad !== null && s.fd !== null ? Math.abs(s.ad - s.fd) : null));
    const finite = (vs: (number | null)[]) => vs.filter((v): v is number => v !== null).map(Math.abs);
    const span = Math.max(0, ...finite(sorted.flatMap((s) => [s.ad, s.fd])));
    const diffSpan = Math.max(span, ...finite(diffs));
    const columns = sorted.map((s, i): JacobianColumn => {
      const worst = !s.ok && s.element === ev.element && s.input === ev.input && s.output === ev.output;
      const title =
        `d ${output}/d ${input}[${s.element}]: AD ${fmtPrecise(s.ad)}, FD ${fmtPrecise(s.fd)}, |AD − FD| ${fmtPrecise(diffs[i])}` +
        (s.ok ? '' : ' — disagrees') +
        (worst ? ' (the worst)' : '');
      return { element: s.element, ok: s.ok, worst, ad: divergingCell(s.ad, span), fd: divergingCell(s.fd, span), diff: sequentialCell(diffs[i], diffSpan), title };
    });
    const failed = columns.filter((c) => !c.ok).length;
    const n = columns.length;
    const summary = `d ${output}/d ${input}: ${n} element${n === 1 ? '' : 's'} compared, ${disagreeing(failed)}`;
    return { input, output, columns, failed, span, diffSpan, summary };
  });
  // Stable: the pairs that disagree first, each group in the server's order.
  return [...panels.filter((p) => p.failed), ...panels.filter((p) => !p.failed)];
}

/** What the numbers are, for the picture's caption. */
export function cotangentText(cotangent: Cotangent | null): string {
  if (cotangent === 'ones') {
    return 'Each value is d output/d input[element]';
  }
  if (cotangent === 'random') {
    return 'Each value is the derivative of the output projected on a random output direction (a random cotangent w): d(w·output)/d input[element]';
  }
  return 'Each value is a derivative of the output with respect to input[element]';
}
