/**
 * The status bar item: the device, and the problems of the active file (the
 * Problems panel's count of Tapewatch's diagnostics for it), with that file's
 * last run in the tooltip. A click runs verification of the active file.
 */

import * as path from 'node:path';
import { Commands, STATUS_ITEM_ID } from './common/constants';
import * as vsapi from './common/vscodeapi';
import type { RunSummary } from '../shared/protocol';
import { statusView, type ActiveFile, type LastRun, type StatusState } from './statusModel';

/** The key a file's last run is kept under. */
function fileKey(fsPath: string): string {
  return process.platform === 'win32' ? fsPath.toLowerCase() : fsPath;
}

export class StatusBar {
  private readonly item: vsapi.StatusBarItem;
  private state: StatusState;
  /** The last run of each file this window saw (a run, or a kept run restored after a reload). */
  private readonly runs = new Map<string, LastRun>();
  private readonly disposables: vsapi.Disposable[] = [];

  constructor(device: string) {
    this.item = vsapi.createStatusBarItem(STATUS_ITEM_ID, 'Tapewatch');
    this.item.command = Commands.runVerification;
    this.state = { device, trusted: vsapi.isTrusted() };
    this.disposables.push(
      vsapi.onDidChangeActiveTextEditor(() => this.update({})),
      vsapi.onDidChangeDiagnostics((uris) => {
        const active = vsapi.activeDocument()?.uri.toString();
        if (active && uris.some((u) => u.toString() === active)) {
          this.update({});
        }
      }),
    );
    this.render();
    this.item.show();
  }

  update(change: Partial<StatusState>): void {
    this.state = { ...this.state, ...change, trusted: vsapi.isTrusted() };
    this.render();
  }

  /** A run of `uri` ended (or a kept run of it was restored). */
  finished(uri: vsapi.Uri, summary: RunSummary): void {
    const when = summary.restored ? Date.parse(summary.restored.time) || Date.now() : Date.now();
    this.runs.set(fileKey(uri.fsPath), { file: path.basename(uri.fsPath), summary, when });
    this.update({ running: undefined });
  }

  /** The diagnostics of `fsPath` (of every script without one) were withdrawn: so is its last run. */
  cleared(fsPath?: string): void {
    if (fsPath === undefined) {
      this.runs.clear();
    } else {
      this.runs.delete(fileKey(fsPath));
    }
    this.update({});
  }

  /** Forget the runs that failed because of the interpreter (TW903, TW908): a new one was checked. */
  clearFailures(): void {
    for (const [key, run] of this.runs) {
      if (run.summary.failure && ['TW903', 'TW908'].includes(run.summary.failure.code)) {
        this.runs.delete(key);
      }
    }
    this.update({});
  }

  /** The last run of a file, if this window saw one. */
  lastRun(fsPath: string): LastRun | undefined {
    return this.runs.get(fileKey(fsPath));
  }

  private activeFile(): ActiveFile | undefined {
    const doc = vsapi.activeDocument();
    if (!doc || doc.languageId !== 'python') {
      return undefined;
    }
    const counts = { error: 0, warning: 0, information: 0 };
    for (const d of vsapi.tapewatchDiagnostics(doc.uri)) {
      if (d in counts) {
        counts[d as keyof typeof counts]++;
      }
    }
    return { file: path.basename(doc.uri.fsPath), counts, last: doc.uri.scheme === 'file' ? this.runs.get(fileKey(doc.uri.fsPath)) : undefined };
  }

  private render(): void {
    const view = statusView({ ...this.state, active: this.activeFile(), now: Date.now() });
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.tone === 'normal' ? undefined : vsapi.themeColor(view.tone === 'error' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.item.dispose();
  }
}
