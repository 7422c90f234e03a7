/**
 * The one module that calls the `vscode` API at run time.
 *
 * Everything else imports `vscode` for types only (`import type`), so the
 * logic around it (settings, interpreter choice, messages, view models) runs
 * under plain Node in the unit tests. Keep these wrappers thin: no logic.
 */

import * as vscode from 'vscode';

export type { Disposable, ExtensionContext, LanguageStatusItem, LogOutputChannel, QuickPickItem, StatusBarItem, TextDocument, Uri, WebviewPanel } from 'vscode';

// --- workspace ---------------------------------------------------------------

export function getConfiguration(section: string, scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(section, scope);
}

export function onDidChangeConfiguration(listener: (e: vscode.ConfigurationChangeEvent) => unknown): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration(listener);
}

/** Write a setting in the workspace when one is open, else in the user settings. */
export async function updateSetting(section: string, key: string, value: unknown, scope?: vscode.Uri): Promise<void> {
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration(section, scope).update(key, value, target);
}

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

export function onDidGrantWorkspaceTrust(listener: () => unknown): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(listener);
}

export function workspaceFolderPath(uri?: vscode.Uri): string | undefined {
  const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.fsPath;
}

export function parseUri(value: string): vscode.Uri {
  return vscode.Uri.parse(value, true);
}

export function fileUri(path: string): vscode.Uri {
  return vscode.Uri.file(path);
}

export function joinUri(base: vscode.Uri, ...parts: string[]): vscode.Uri {
  return vscode.Uri.joinPath(base, ...parts);
}

/** A URI of a virtual document (no file behind it). */
export function virtualUri(scheme: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path });
}

/** Read-only documents of one scheme, their text from `provide`; `changed` fires a re-read. */
export function registerTextContent(
  scheme: string,
  provide: (uri: vscode.Uri) => string,
): { changed: (uri: vscode.Uri) => void; disposable: vscode.Disposable } {
  const emitter = new vscode.EventEmitter<vscode.Uri>();
  const registration = vscode.workspace.registerTextDocumentContentProvider(scheme, {
    onDidChange: emitter.event,
    provideTextDocumentContent: (uri) => provide(uri),
  });
  return { changed: (uri) => emitter.fire(uri), disposable: vscode.Disposable.from(registration, emitter) };
}

/** Open a document as text beside the active editor. */
export async function showDocumentBeside(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

export async function openDocument(uri: vscode.Uri): Promise<vscode.TextDocument> {
  return vscode.workspace.openTextDocument(uri);
}

// --- extensions and commands -----------------------------------------------

/** The exports of another extension, activating it first; undefined if not installed. */
export async function extensionExports<T>(id: string): Promise<T | undefined> {
  const ext = vscode.extensions.getExtension<T>(id);
  if (!ext) {
    return undefined;
  }
  return ext.isActive ? ext.exports : ext.activate();
}

export function extensionInstalled(id: string): boolean {
  return vscode.extensions.getExtension(id) !== undefined;
}

export function registerCommand(id: string, handler: (...args: unknown[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, handler);
}

export function executeCommand<T>(id: string, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

// --- window ------------------------------------------------------------------

export function createLogChannel(name: string): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(name, { log: true });
}

/** LogLevel.Trace / LogLevel.Debug, for deciding the LSP trace level. */
export const LOG_LEVEL = { trace: vscode.LogLevel.Trace, debug: vscode.LogLevel.Debug } as const;

export function showInformationMessage(message: string, ...items: string[]): Thenable<string | undefined> {
  return vscode.window.showInformationMessage(message, ...items);
}

export function showWarningMessage(message: string, ...items: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(message, ...items);
}

export function showErrorMessage(message: string, ...items: string[]): Thenable<string | undefined> {
  return vscode.window.showErrorMessage(message, ...items);
}

/** A message in the status bar for a few seconds (no notification). */
export function setStatusBarMessage(text: string, ms: number): vscode.Disposable {
  return vscode.window.setStatusBarMessage(text, ms);
}

export function showQuickPick<T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions): Thenable<T | undefined> {
  return vscode.window.showQuickPick(items, options);
}

export function showInputBox(options: vscode.InputBoxOptions): Thenable<string | undefined> {
  return vscode.window.showInputBox(options);
}

export interface ProgressReport {
  message?: string;
  increment?: number;
}

/** A cancellable notification with a progress bar. */
export function withNotificationProgress<R>(
  title: string,
  task: (progress: { report(value: ProgressReport): void }, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, task);
}

/** A quiet spinner in the status bar. */
export function withWindowProgress<R>(title: string, task: () => Thenable<R>): Thenable<R> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, task);
}

export function activeDocument(): vscode.TextDocument | undefined {
  return vscode.window.activeTextEditor?.document;
}

export function onDidChangeActiveTextEditor(listener: () => unknown): vscode.Disposable {
  return vscode.window.onDidChangeActiveTextEditor(listener);
}

export function onDidChangeDiagnostics(listener: (uris: readonly vscode.Uri[]) => unknown): vscode.Disposable {
  return vscode.languages.onDidChangeDiagnostics((e) => listener(e.uris));
}

/** The severities of Tapewatch's diagnostics of `uri` (source "tapewatch"), as the Problems panel lists them. */
export function tapewatchDiagnostics(uri: vscode.Uri): ('error' | 'warning' | 'information' | 'hint')[] {
  const names = { [vscode.DiagnosticSeverity.Error]: 'error', [vscode.DiagnosticSeverity.Warning]: 'warning', [vscode.DiagnosticSeverity.Information]: 'information', [vscode.DiagnosticSeverity.Hint]: 'hint' } as const;
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tapewatch').map((d) => names[d.severity]);
}

/** A language status item (the `{}` in the status bar beside the language name), for Python files. */
export function createLanguageStatusItem(id: string, name: string): vscode.LanguageStatusItem {
  const item = vscode.languages.createLanguageStatusItem(id, { language: 'python' });
  item.name = name;
  return item;
}

export const LANGUAGE_STATUS_SEVERITY = {
  information: vscode.LanguageStatusSeverity.Information,
  warning: vscode.LanguageStatusSeverity.Warning,
  error: vscode.LanguageStatusSeverity.Error,
} as const;

export function setContext(key: string, value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}

/** A file picker for one file; the path, or undefined. */
export async function pickFile(title: string, defaultPath?: string): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    defaultUri: defaultPath ? vscode.Uri.file(defaultPath) : undefined,
    openLabel: 'Use this interpreter',
  });
  return picked?.[0]?.fsPath;
}

/** A quick pick with one item active at first (`active`). */
export function pickWithActive<T extends vscode.QuickPickItem>(items: T[], options: { title: string; placeholder: string; active?: T }): Promise<T | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    pick.title = options.title;
    pick.placeholder = options.placeholder;
    pick.items = items;
    if (options.active) {
      pick.activeItems = [options.active];
    }
    let done = false;
    pick.onDidAccept(() => {
      done = true;
      resolve(pick.selectedItems[0] ?? pick.activeItems[0]);
      pick.hide();
    });
    pick.onDidHide(() => {
      if (!done) {
        resolve(undefined);
      }
      pick.dispose();
    });
    pick.show();
  });
}

/** Open `uri` with the cursor at 1-based `line`:`column`, in the first editor group. */
export async function showAt(uri: vscode.Uri, line: number, column: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const pos = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(pos, pos) });
}

export function createStatusBarItem(id: string, name: string): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem(id, vscode.StatusBarAlignment.Left, 0);
  item.name = name;
  return item;
}

export function createWebviewPanel(viewType: string, title: string, localRoot: vscode.Uri): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(
    viewType,
    title,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    { enableScripts: true, localResourceRoots: [localRoot] },
  );
}

export function registerWebviewPanelSerializer(viewType: string, serializer: vscode.WebviewPanelSerializer): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, serializer);
}

export function isDevelopmentMode(context: vscode.ExtensionContext): boolean {
  return context.extensionMode === vscode.ExtensionMode.Development;
}

export function themeColor(id: string): vscode.ThemeColor {
  return new vscode.ThemeColor(id);
}
