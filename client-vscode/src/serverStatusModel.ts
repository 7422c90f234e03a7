/**
 * The language status item for the server (in the `{}` beside "Python" in the
 * status bar): its state, the interpreter and its Warp. Pure, unit-tested;
 * `serverStatus.ts` shows it.
 */

export type ServerPhase = 'starting' | 'running' | 'failed' | 'stopped';

export interface ServerStatusState {
  phase: ServerPhase;
  /** The interpreter the server and the runs use. */
  interpreter?: string;
  /** From the interpreter check at each start: Warp's version and devices, or why Warp cannot be imported. */
  warp?: { version: string; devices: string[] } | { error: string };
  /** Why the server could not start. */
  error?: string;
  trusted: boolean;
}

export interface ServerStatusView {
  text: string;
  detail: string;
  severity: 'information' | 'warning' | 'error';
  busy: boolean;
}

export function serverStatusView(s: ServerStatusState): ServerStatusView {
  const python = s.interpreter ?? 'the interpreter';
  switch (s.phase) {
    case 'starting':
      return { text: 'Tapewatch: starting', detail: python, severity: 'information', busy: true };
    case 'failed':
      return { text: 'Tapewatch: server failed', detail: s.error ?? `could not start on ${python}`, severity: 'error', busy: false };
    case 'stopped':
      return { text: 'Tapewatch: stopped', detail: 'Tapewatch: Restart Server starts it', severity: 'warning', busy: false };
    case 'running': {
      const warp = s.warp;
      if (warp && 'error' in warp) {
        return { text: 'Tapewatch: no Warp', detail: `${python}: ${warp.error}`, severity: 'warning', busy: false };
      }
      const parts = [python];
      if (warp) {
        parts.push(`Warp ${warp.version || '?'}${warp.devices.length ? ` (${warp.devices.join(', ')})` : ''}`);
      } else if (!s.trusted) {
        parts.push('untrusted workspace: static lints only');
      }
      return { text: 'Tapewatch: running', detail: parts.join(' · '), severity: 'information', busy: false };
    }
  }
}
