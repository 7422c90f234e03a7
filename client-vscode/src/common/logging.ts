/**
 * LSP trace level from the "Tapewatch" log channel's level (Developer: Set
 * Log Level...): Trace shows every message with its payload, Debug shows
 * message names, anything higher shows none.
 */

export type TraceSetting = 'off' | 'messages' | 'verbose';

export function traceFor(level: number, levels: { trace: number; debug: number }): TraceSetting {
  if (level === levels.trace) {
    return 'verbose';
  }
  return level === levels.debug ? 'messages' : 'off';
}

/** Render an error (or anything thrown) as one line. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    return err.message;
  }
  return typeof err === 'string' ? err : JSON.stringify(err);
}
