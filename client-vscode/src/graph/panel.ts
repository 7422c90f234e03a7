/**
 * The tape-graph webview, host side: fetches `tapewatch/tapeGraph` for a
 * script, posts it to the page as one `graph` message, and opens files when
 * the page sends `navigate`. The panel follows the active editor (a Python
 * file) unless the page's pin keeps its script. The page itself lives in
 * client-vscode/webview.
 */

import * as path from 'node:path';
import type { CancellationToken } from 'vscode';
import { GRAPH_VIEW_TYPE, Methods } from '../common/constants';
import { errorText } from '../common/logging';
import type { ServerConnection } from '../common/server';
import * as vsapi from '../common/vscodeapi';
import { graphMentionsPath, parseWebviewMessage, type HostToWebview } from '../../shared/messages';
import { isObject, parseTapeGraphResult, type TapeGraphResult } from '../../shared/protocol';
import { graphPageHtml, makeNonce } from './html';

export class TapeGraphPanel {
  private panel: vsapi.WebviewPanel | undefined;
  private uri: vsapi.Uri | undefined;
  private result: TapeGraphResult | null = null;
  /** The page's pin: keep this script while other files are active. */
  private pinned = false;
  private readonly webviewRoot: vsapi.Uri;

  constructor(
    context: vsapi.ExtensionContext,
    private readonly server: ServerConnection,
    private readonly log: vsapi.LogOutputChannel,
    private readonly runVerification: (uri: vsapi.Uri) => unknown,
  ) {
    this.webviewRoot = vsapi.joinUri(context.extensionUri, 'client-vscode', 'out', 'webview');
    context.subscriptions.push(
      vsapi.registerWebviewPanelSerializer(GRAPH_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          const uri = isObject(state) && typeof state.uri === 'string' ? state.uri : undefined;
          // The page restores its last state and sends `ready`, which refreshes it.
          this.adopt(panel, uri ? vsapi.parseUri(uri) : undefined);
        },
      }),
      { dispose: () => this.panel?.dispose() },
      vsapi.onDidChangeActiveTextEditor(() => this.followActiveEditor()),
    );
  }

  /** The script the panel shows, if it is open. */
  get shownUri(): vsapi.Uri | undefined {
    return this.panel ? this.uri : undefined;
  }

  /** The active editor changed: an unpinned panel shows the graph of the Python file now in front. */
  private followActiveEditor(): void {
    const doc = vsapi.activeDocument();
    if (!this.panel || this.pinned || !doc || doc.languageId !== 'python' || doc.uri.scheme !== 'file') {
      return;
    }
    if (this.uri?.fsPath === doc.uri.fsPath) {
      return;
    }
    this.uri = doc.uri;
    void this.refresh();
  }

  /** Show the graph of `uri`, creating the panel if needed. */
  async show(uri: vsapi.Uri): Promise<void> {
    if (this.panel) {
      this.uri = uri;
      this.panel.reveal(undefined, true);
      await this.refresh();
    } else {
      // A new page asks for its data with `ready` once its script runs.
      this.adopt(vsapi.createWebviewPanel(GRAPH_VIEW_TYPE, 'Tape graph', this.webviewRoot), uri);
    }
  }

  /** A run of `uri` started: a panel that shows it says so until the new graph arrives. */
  running(uri: vsapi.Uri): void {
    if (this.panel && this.uri?.fsPath === uri.fsPath) {
      this.post({ type: 'notice', text: `Running verification of ${path.basename(uri.fsPath)}…` });
    }
  }

  /** Fetch and post the graph again; with `uri`, only if the panel shows that script. */
  async refresh(uri?: vsapi.Uri, token?: CancellationToken): Promise<void> {
    if (!this.panel || !this.uri || (uri !== undefined && uri.fsPath !== this.uri.fsPath)) {
      return;
    }
    const current = this.uri;
    this.panel.title = `Tape graph: ${path.basename(current.fsPath)}`;
    try {
      const raw = await this.server.request(Methods.tapeGraph, { uri: current.toString() }, token);
      const result = parseTapeGraphResult(raw);
      if (result === undefined) {
        throw new Error('the server sent a tape graph of an unknown shape');
      }
      if (this.uri !== current) {
        return; // the panel moved on to another script meanwhile
      }
      this.result = result;
      this.post({ type: 'graph', uri: current.toString(), title: path.basename(current.fsPath), result, pinned: this.pinned });
    } catch (err) {
      this.log.warn(`Tape graph of ${current.toString()}: ${errorText(err)}`);
      this.post({ type: 'notice', text: `Could not get the tape graph: ${errorText(err)}` });
    }
  }

  private adopt(panel: vsapi.WebviewPanel, uri: vsapi.Uri | undefined): void {
    this.panel = panel;
    this.uri = uri;
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.webviewRoot] };
    panel.webview.html = graphPageHtml({
      cspSource: panel.webview.cspSource,
      nonce: makeNonce(),
      scriptUri: panel.webview.asWebviewUri(vsapi.joinUri(this.webviewRoot, 'main.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vsapi.joinUri(this.webviewRoot, 'main.css')).toString(),
    });
    panel.webview.onDidReceiveMessage((raw) => void this.onMessage(raw));
    panel.onDidDispose(() => {
      if (this.panel === panel) {
        this.panel = undefined;
        this.uri = undefined;
        this.result = null;
        this.pinned = false;
      }
    });
  }

  private post(message: HostToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn('Ignored a malformed message from the tape graph view.');
      return;
    }
    switch (message.type) {
      case 'ready': {
        if (message.pinned !== undefined) {
          this.pinned = message.pinned;
        }
        // A panel restored after a reload shows the file in front, unless pinned to its own.
        const doc = vsapi.activeDocument();
        if (!this.pinned && doc && doc.languageId === 'python' && doc.uri.scheme === 'file') {
          this.uri = doc.uri;
        }
        await this.refresh();
        return;
      }
      case 'pin':
        this.pinned = message.pinned;
        if (!this.pinned) {
          this.followActiveEditor();
        }
        return;
      case 'run':
        if (this.uri) {
          this.runVerification(this.uri);
        }
        return;
      case 'navigate': {
        // Open only files the graph itself mentions.
        if (!graphMentionsPath(this.result, message.path)) {
          this.log.warn(`Ignored navigation to a file the graph does not mention: ${message.path}`);
          return;
        }
        const file = path.isAbsolute(message.path) || !this.uri ? message.path : path.join(path.dirname(this.uri.fsPath), message.path);
        try {
          await vsapi.showAt(vsapi.fileUri(file), message.line, message.column);
        } catch (err) {
          void vsapi.showWarningMessage(`Tapewatch: cannot open ${file}: ${errorText(err)}`);
        }
        return;
      }
    }
  }
}
