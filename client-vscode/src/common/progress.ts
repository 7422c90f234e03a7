/**
 * LSP work-done progress → VS Code progress reports.
 *
 * LSP sends an absolute `percentage`; `Progress.report` wants the increment
 * since the last report. Pure, so it is unit-tested.
 */

export interface LspProgress {
  kind: 'begin' | 'report' | 'end';
  title?: string;
  message?: string;
  percentage?: number;
}

export interface VsProgressReport {
  message?: string;
  increment?: number;
}

/** A stateful converter for one progress token. Returns undefined when there is nothing to show. */
export function progressConverter(): (value: LspProgress) => VsProgressReport | undefined {
  let last = 0;
  return (value) => {
    if (value.kind === 'end') {
      return value.message ? { message: value.message } : undefined;
    }
    const out: VsProgressReport = {};
    if (value.message) {
      out.message = value.message;
    }
    if (typeof value.percentage === 'number' && Number.isFinite(value.percentage)) {
      const pct = Math.min(100, Math.max(0, value.percentage));
      if (pct > last) {
        out.increment = pct - last;
        last = pct;
      }
    }
    return out.message !== undefined || out.increment !== undefined ? out : undefined;
  };
}
