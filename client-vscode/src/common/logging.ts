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

export type LineLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/**
 * A line the language client library writes itself (`[Info  - 3:04:05 PM] message`): the log
 * channel stamps its own time, so the library's prefix goes and its level becomes the line's
 * (one timestamp per line). A server that exits with code 0 was stopped on purpose (a restart):
 * information, not an error. Other lines (payloads, traces) pass as they are.
 */
export function routeClientLine(line: string): { level: LineLevel | undefined; text: string } {
  const m = /^\[(Trace|Debug|Info|Warn|Error)\s*- [^\]]*\] ?([\s\S]*)$/.exec(line);
  if (!m) {
    return { level: undefined, text: line };
  }
  const level = m[1].toLowerCase() as LineLevel;
  const text = m[2];
  if (level === 'error' && /exited with code 0\b/.test(text)) {
    return { level: 'info', text };
  }
  return { level, text };
}

/** Why the server could not start on `command`, in the user's words (a missing file, not "spawn … ENOENT"). */
export function startFailureText(command: string, err: unknown): string {
  const text = errorText(err);
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  let why = text;
  if (code === 'ENOENT' || /\bENOENT\b/.test(text)) {
    why = `${command} does not exist (check tapewatch.interpreter for a typo)`;
  } else if (code === 'EACCES' || /\bEACCES\b/.test(text)) {
    why = `${command} is not executable`;
  }
  return `Tapewatch could not start its server with "${command}": ${why}. Set "tapewatch.interpreter" to a Python 3.9+ that has Warp installed.`;
}
