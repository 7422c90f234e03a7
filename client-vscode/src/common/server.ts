/**
 * Starts, restarts and talks to the language server (`<python> -m tapewatch lsp`).
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CancellationToken, ConfigurationChangeEvent, Uri } from 'vscode';
import {
  CancellationToken as JsonRpcCancellationToken,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LSPErrorCodes,
  ResponseError,
  RevealOutputChannelOn,
  State,
  Trace,
  WorkDoneProgress,
  type DynamicFeature,
  type ExecuteCommandRegistrationOptions,
  type LanguageClientOptions,
  type ShowDocumentResult,
  type StaticFeature,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageclient/node';
import { diagnosticMessage, plainMessage } from '../diagnosticText';
import { readSettings } from './config';
import { actionsForTrust, ExecuteCommandsExcept } from './commandFilter';
import { Commands, EXTENSION_NAME, Methods, PYTHON_EXTENSION_ID } from './constants';
import { errorText, routeClientLine, startFailureText, traceFor } from './logging';
import { activeEnvironment, chooseInterpreter, runInterpreter, type InterpreterChoice, type InterpreterSource, type PythonExtensionApi } from './python';
import { describeLaunch, locateServerCode, serverLaunch } from './serverLaunch';
import { didChangeConfigurationParams, initializationOptions, RESTART_KEYS, SECTION, type ResolvedSettings, type ServerSettings } from './settings';
import * as vsapi from './vscodeapi';

/** Server commands the extension registers itself (see commandFilter.ts). */
const CLIENT_OWNED_COMMANDS: ReadonlySet<string> = new Set(Object.values(Commands));

class TapewatchLanguageClient extends LanguageClient {
  // Called from the base constructor for each built-in feature: no instance fields here.
  public override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    const method = (feature as Partial<DynamicFeature<unknown>>).registrationType?.method;
    if (method === ExecuteCommandRequest.method) {
      super.registerFeature(new ExecuteCommandsExcept(feature as DynamicFeature<ExecuteCommandRegistrationOptions>, CLIENT_OWNED_COMMANDS));
      return;
    }
    super.registerFeature(feature);
  }

  // The library's own toast for a failed start ("couldn't create connection to server") would stand
  // beside ours, which says what to do (ServerConnection.fail): it goes to the log only.
  public override error(message: string, data?: unknown, showNotification: boolean | 'force' = 'force'): void {
    super.error(message, data, message.includes("couldn't create connection to server") ? false : showNotification);
  }
}

/** A `file:` (or other) URI whose path is a Markdown file. */
function isMarkdownUri(uri: string): boolean {
  return /\.md$/i.test(uri.split(/[?#]/)[0]);
}

export type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/** A request the user cancelled (the server may also answer with a "cancelled" summary). */
export function isCancellation(err: unknown): boolean {
  return err instanceof ResponseError && err.code === LSPErrorCodes.RequestCancelled;
}

/** The log channel as the language client writes to it: its own lines at their level, one timestamp each. */
function singleTimestamp(log: vsapi.LogOutputChannel): vsapi.LogOutputChannel {
  return new Proxy(log, {
    get(target, prop, receiver) {
      if (prop === 'appendLine') {
        return (value: string) => {
          const { level, text } = routeClientLine(value);
          if (level) {
            target[level](text);
          } else {
            target.appendLine(value);
          }
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export class ServerConnection {
  private client: LanguageClient | undefined;
  private choice: InterpreterChoice | undefined;
  private pending: Promise<void> = Promise.resolve();
  private readonly disposables: vsapi.Disposable[] = [];
  private readonly reportedProblems = new Set<string>();
  private readonly runFinishedListeners = new Set<(params: unknown) => void>();
  private readonly stateListeners = new Set<() => void>();
  private readonly startListeners = new Set<() => void>();
  /** Why the last start failed, if it did. */
  public startError: string | undefined;
  private starting = false;

  constructor(
    private readonly context: vsapi.ExtensionContext,
    private readonly log: vsapi.LogOutputChannel,
  ) {
    this.disposables.push(
      log.onDidChangeLogLevel(() => void this.applyTrace()),
      vsapi.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      vsapi.onDidGrantWorkspaceTrust(() => {
        this.log.info('Workspace trusted: restarting the server with the workspace settings.');
        void this.restart();
      }),
    );
    void this.watchPythonExtension();
  }

  onRunFinished(listener: (params: unknown) => void): vsapi.Disposable {
    this.runFinishedListeners.add(listener);
    return { dispose: () => this.runFinishedListeners.delete(listener) };
  }

  /** After each successful start (once per server process). */
  onDidStart(listener: () => void): vsapi.Disposable {
    this.startListeners.add(listener);
    return { dispose: () => this.startListeners.delete(listener) };
  }

  onDidChangeState(listener: () => void): vsapi.Disposable {
    this.stateListeners.add(listener);
    return { dispose: () => this.stateListeners.delete(listener) };
  }

  /**
   * Start, or stop and start again. Calls are queued, never interleaved; calls made while a
   * restart waits its turn share it (granting trust changes the trust and the restricted settings
   * at once: one restart, not two).
   */
  restart(): Promise<void> {
    if (this.queued) {
      return this.queued;
    }
    const next = this.pending.then(
      () => this.startQueued(),
      () => this.startQueued(),
    );
    this.queued = next;
    this.pending = next;
    return next;
  }

  private queued: Promise<void> | undefined;

  private startQueued(): Promise<void> {
    this.queued = undefined;
    return this.doRestart();
  }

  async dispose(): Promise<void> {
    this.disposables.forEach((d) => d.dispose());
    await this.pending.catch(() => undefined);
    await this.stopClient();
  }

  /** Where the server is: for the language status item. */
  get phase(): 'starting' | 'running' | 'failed' | 'stopped' {
    if (this.starting) {
      return 'starting';
    }
    if (this.startError) {
      return 'failed';
    }
    return this.client?.state === State.Running ? 'running' : 'stopped';
  }

  /** The interpreter the server runs on (known once a start chose it). */
  get serverInterpreter(): string | undefined {
    return this.choice?.command;
  }

  private async doRestart(): Promise<void> {
    this.starting = true;
    try {
      await this.doRestartSteps();
    } finally {
      this.starting = false;
      this.fireState();
    }
  }

  private async doRestartSteps(): Promise<void> {
    await this.stopClient();
    this.startError = undefined;
    this.fireState();

    const trusted = vsapi.isTrusted();
    const { interpreter, problems } = readSettings(undefined, undefined);
    this.reportProblems(problems);
    const pythonApi = interpreter ? undefined : await this.pythonExtension();
    const choice = chooseInterpreter({
      setting: interpreter,
      pythonExtension: await activeEnvironment(pythonApi, vsapi.activeDocument()?.uri),
      trusted,
      platform: process.platform,
    });
    choice.notes.forEach((n) => this.log.warn(n));
    this.choice = choice;

    const code = locateServerCode({
      extensionRoot: this.context.extensionPath,
      development: vsapi.isDevelopmentMode(this.context),
      exists: (p) => fs.existsSync(p),
      join: path.join,
      delimiter: path.delimiter,
    });
    if (!code) {
      this.fail('The Tapewatch server code is missing from the extension (client-vscode/bundled). Reinstall the extension.');
      return;
    }
    const launch = serverLaunch(choice.command, code, process.env, path.delimiter);
    this.log.info(`Starting the server (${code.mode}, interpreter from ${choice.source}): ${describeLaunch(launch)}`);

    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file', language: 'python' }],
      outputChannel: singleTimestamp(this.log),
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: initializationOptions(this.settingsFor(undefined)),
      middleware: {
        // Messages are plain text in VS Code: code spans become quotes; "tapewatch(TWnnn)" on a line of its own.
        handleDiagnostics: (uri, diagnostics, next) => {
          for (const d of diagnostics) {
            d.message = diagnosticMessage(d.message);
            for (const r of d.relatedInformation ?? []) {
              r.message = plainMessage(r.message);
            }
          }
          next(uri, diagnostics);
        },
        // Untrusted: no lightbulb entry that would run the workspace's code (Generate FD harness).
        provideCodeActions: async (document, range, context, token, next) => {
          const actions = await next(document, range, context, token);
          return actions ? actionsForTrust(actions, vsapi.isTrusted()) : actions;
        },
        workspace: {
          // `workspace/configuration` pulls get the same expanded settings as the push (the server validates both).
          configuration: async (params, token, next) => {
            const pulled = await next(params, token);
            if (!Array.isArray(pulled)) {
              return pulled;
            }
            return params.items.map((item, i) =>
              item.section === SECTION ? this.settingsFor(item.scopeUri ? vsapi.parseUri(item.scopeUri) : undefined) : pulled[i],
            );
          },
          // We push `{settings: {tapewatch: ...}}` ourselves (onConfigurationChanged).
          didChangeConfiguration: async () => undefined,
        },
        window: {
          // The server shows a code's documentation page (a .md file in the extension's
          // install folder): render it, read-only, instead of opening the raw file.
          showDocument: async (params, next) => {
            if (params.external !== true && isMarkdownUri(params.uri)) {
              try {
                await vsapi.executeCommand('markdown.showPreview', vsapi.parseUri(params.uri));
                return { success: true };
              } catch (err) {
                this.log.warn(`Markdown preview of ${params.uri}: ${errorText(err)}; opening the file.`);
              }
            }
            return next(params, JsonRpcCancellationToken.None) as Promise<ShowDocumentResult>;
          },
        },
      },
    };
    const client = new TapewatchLanguageClient(
      'tapewatch',
      EXTENSION_NAME,
      { command: launch.command, args: launch.args, options: { cwd: launch.cwd, env: launch.env } },
      clientOptions,
    );
    client.onDidChangeState(() => this.fireState());
    client.onNotification(Methods.runFinished, (params: unknown) => {
      this.runFinishedListeners.forEach((l) => l(params));
    });
    this.client = client;
    try {
      await client.start();
      await this.applyTrace();
      this.log.info(`Server running on ${choice.command}.`);
      this.startListeners.forEach((l) => l());
    } catch (err) {
      this.fail(startFailureText(choice.command, err));
    }
    this.fireState();
  }

  /** A start failed since the last interpreter check (a check that then finds Warp confirms the fix). */
  public startFailedSinceCheck = false;

  private fail(message: string): void {
    this.startError = message;
    this.startFailedSinceCheck = true;
    this.log.error(message);
    void vsapi.showErrorMessage(message, 'Open Settings', 'Show Output').then((pick) => {
      if (pick === 'Open Settings') {
        void vsapi.executeCommand('workbench.action.openSettings', 'tapewatch.interpreter');
      } else if (pick === 'Show Output') {
        this.log.show();
      }
    });
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) {
      return;
    }
    try {
      if (client.needsStop()) {
        await client.stop(2000);
      }
    } catch (err) {
      this.log.warn(`Stopping the server: ${errorText(err)}`);
    }
    await client.dispose().catch(() => undefined);
  }

  private resolvedFor(scope: Uri | undefined): ResolvedSettings {
    const resolved = readSettings(scope, this.choice ? runInterpreter(this.choice) : undefined);
    this.reportProblems(resolved.problems);
    return resolved;
  }

  private settingsFor(scope: Uri | undefined): ServerSettings {
    return this.resolvedFor(scope).settings;
  }

  /** Where the server's interpreter came from (`path`: nothing set, `python3` from PATH). */
  get interpreterSource(): InterpreterSource | undefined {
    return this.choice?.source;
  }

  /** The interpreter that runs scripts for `scope`: the setting, else the server's own. */
  interpreterFor(scope: Uri | undefined): string | undefined {
    return this.resolvedFor(scope).interpreter ?? this.choice?.command;
  }

  private reportProblems(problems: string[]): void {
    for (const p of problems) {
      if (!this.reportedProblems.has(p)) {
        this.reportedProblems.add(p);
        this.log.warn(p);
        void vsapi.showWarningMessage(p);
      }
    }
  }

  private onConfigurationChanged(e: ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration(SECTION)) {
      return;
    }
    this.reportedProblems.clear();
    if (RESTART_KEYS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) {
      this.log.info('The interpreter setting changed: restarting the server.');
      void this.restart();
      return;
    }
    const client = this.client;
    if (client?.state === State.Running) {
      client
        .sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams(this.settingsFor(undefined)))
        .catch((err) => this.log.warn(`Sending settings: ${errorText(err)}`));
    }
  }

  private async pythonExtension(): Promise<PythonExtensionApi | undefined> {
    try {
      return await vsapi.extensionExports<PythonExtensionApi>(PYTHON_EXTENSION_ID);
    } catch (err) {
      this.log.warn(`The Python extension did not activate: ${errorText(err)}`);
      return undefined;
    }
  }

  private async watchPythonExtension(): Promise<void> {
    const api = await this.pythonExtension();
    const subscribe = api?.environments?.onDidChangeActiveEnvironmentPath;
    if (typeof subscribe === 'function') {
      this.disposables.push(
        subscribe(() => {
          if (this.choice?.source !== 'setting') {
            this.log.info("The Python extension's active environment changed: restarting the server.");
            void this.restart();
          }
        }),
      );
    }
  }

  private async applyTrace(): Promise<void> {
    const client = this.client;
    if (client?.state !== State.Running) {
      return;
    }
    const level = traceFor(this.log.logLevel, vsapi.LOG_LEVEL);
    await client.setTrace(level === 'verbose' ? Trace.Verbose : level === 'messages' ? Trace.Messages : Trace.Off);
  }

  private fireState(): void {
    this.stateListeners.forEach((l) => l());
  }

  /** The running client, after any start or restart in progress. */
  private async requireClient(): Promise<LanguageClient> {
    await this.pending.catch(() => undefined);
    const client = this.client;
    if (client?.state !== State.Running) {
      throw new Error(this.startError ?? 'The Tapewatch server is not running (Tapewatch: Restart Server).');
    }
    return client;
  }

  /** `workspace/executeCommand`; with `onProgress`, work-done progress on a token of our own. */
  async executeCommand(
    command: string,
    args: unknown[],
    token?: CancellationToken,
    onProgress?: (value: ProgressValue) => void,
  ): Promise<unknown> {
    const client = await this.requireClient();
    if (!onProgress) {
      return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }, token);
    }
    const workDoneToken = `tapewatch-${command}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const subscription = client.onProgress(WorkDoneProgress.type, workDoneToken, onProgress);
    try {
      return await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args, workDoneToken }, token);
    } finally {
      subscription.dispose();
    }
  }

  async request(method: string, params: unknown, token?: CancellationToken): Promise<unknown> {
    const client = await this.requireClient();
    // Never pass an undefined token: vscode-jsonrpc would count it as a second
    // parameter and send the params as the array `[params, null]`.
    return token ? client.sendRequest(method, params, token) : client.sendRequest(method, params);
  }
}
