/**
 * The messages between the extension host and the tape-graph webview.
 *
 * Data goes in as one typed message (`graph`), navigation comes out as another
 * (`navigate`). Both sides validate what they receive: the webview is a page
 * that renders user data, so the host treats its messages as untrusted input.
 */

import { isObject, parseTapeGraphResult, type TapeGraphResult } from './protocol';

/** Host → webview: the graph of one script (null: no run of it yet). */
export interface GraphMessage {
  type: 'graph';
  /** Document the graph belongs to. */
  uri: string;
  /** Short name shown in the header (the script's file name). */
  title: string;
  result: TapeGraphResult | null;
  /** The panel keeps this script while other files are active (the page's pin). */
  pinned?: boolean;
}

/** Host → webview: a transient state such as "running…" or an error. */
export interface NoticeMessage {
  type: 'notice';
  text: string;
}

export type HostToWebview = GraphMessage | NoticeMessage;

/** Webview → host: the page has loaded and wants its data; `pinned` as the page last had it. */
export interface ReadyMessage {
  type: 'ready';
  pinned?: boolean;
}

/** Webview → host: keep this script in the panel (true) or follow the active editor again. */
export interface PinMessage {
  type: 'pin';
  pinned: boolean;
}

/** Webview → host: open `path` at `line`:`column` (1-based). */
export interface NavigateMessage {
  type: 'navigate';
  path: string;
  line: number;
  column: number;
}

/** Webview → host: run verification of the graph's script. */
export interface RunMessage {
  type: 'run';
}

export type WebviewToHost = ReadyMessage | NavigateMessage | RunMessage | PinMessage;

const MAX_PATH = 4096;

function positive(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value < 10_000_000;
}

/** Validate a message from the webview; anything malformed is undefined. */
export function parseWebviewMessage(value: unknown): WebviewToHost | undefined {
  if (!isObject(value)) {
    return undefined;
  }
  switch (value.type) {
    case 'ready':
      return typeof value.pinned === 'boolean' ? { type: 'ready', pinned: value.pinned } : { type: 'ready' };
    case 'pin':
      return typeof value.pinned === 'boolean' ? { type: 'pin', pinned: value.pinned } : undefined;
    case 'run':
      return { type: 'run' };
    case 'navigate': {
      const { path, line, column } = value;
      if (typeof path !== 'string' || path === '' || path.length > MAX_PATH || path.includes('\0')) {
        return undefined;
      }
      if (!positive(line)) {
        return undefined;
      }
      return { type: 'navigate', path, line, column: positive(column) ? column : 1 };
    }
    default:
      return undefined;
  }
}

/** Validate a message from the host (the webview's side of the contract). */
export function parseHostMessage(value: unknown): HostToWebview | undefined {
  if (!isObject(value)) {
    return undefined;
  }
  if (value.type === 'notice') {
    return typeof value.text === 'string' ? { type: 'notice', text: value.text } : undefined;
  }
  if (value.type === 'graph' && typeof value.uri === 'string') {
    const result = parseTapeGraphResult(value.result);
    if (result === undefined) {
      return undefined;
    }
    const out: GraphMessage = { type: 'graph', uri: value.uri, title: typeof value.title === 'string' ? value.title : '', result };
    if (typeof value.pinned === 'boolean') {
      out.pinned = value.pinned;
    }
    return out;
  }
  return undefined;
}

/**
 * Whether `path` is a file the graph mentions (a node's, a finding's or a
 * related location's). The host opens only such files, so a page that went
 * wrong cannot make it open arbitrary ones.
 */
export function graphMentionsPath(result: TapeGraphResult | null, path: string): boolean {
  if (!result) {
    return false;
  }
  for (const tape of result.tapes) {
    if (tape.location?.path === path || tape.nodes.some((n) => n.location?.path === path || n.calls.some((c) => c.path === path))) {
      return true;
    }
  }
  return result.findings.some((f) => f.path === path || f.related.some((r) => r.path === path));
}
