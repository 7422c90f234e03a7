/**
 * The numbers behind the finite-difference pictures, from findings' `data`
 * (docs/protocol.md): per FD harness verdict (TW400/401/402/409) every
 * sampled element's AD and FD; per launch check (TW404) its worst derivative.
 * Pure (no DOM): parsed defensively, since `data` is whatever the server sent.
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
  if (f.code === 'TW404' && (num(d.ad) !== null || num(d.fd) !== null)) {
    return {
      kind: 'launch',
      finding: f,
      kernel: text(d.kernel),
      input: text(d.input) || '?',
      output: text(d.output) || '?',
      element: typeof d.element === 'number' && Number.isInteger(d.element) ? d.element : null,
      ad: num(d.ad),
      fd: num(d.fd),
      maxAbs: num(d.max_abs_error),
      checked: num(d.checked),
      failed: num(d.failed),
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
