/**
 * The user's commands (package.json `contributes.commands`). Running and
 * harness generation execute user code, so they refuse in an untrusted
 * workspace; the rest only read.
 */

import * as path from 'node:path';
import { Commands, CONTEXT_KEYS, ServerCommands } from './common/constants';
import { errorText } from './common/logging';
import { progressConverter, type LspProgress } from './common/progress';
import { isCancellation, type ServerConnection } from './common/server';
import { SECTION } from './common/settings';
import * as vsapi from './common/vscodeapi';
import type { TapeGraphPanel } from './graph/panel';
import {
  isObject,
  parseBisectResult,
  parseCompareResult,
  parseDeviceList,
  parseHarnessResult,
  parseKeptRuns,
  parseRunSummary,
  type BisectResult,
  type KeptRun,
  type RunSummary,
} from '../shared/protocol';
import { deviceNameProblem, devicePick, type DeviceAnswer } from './devicePick';
import { openSetting, selectInterpreter } from './fixes';
import { bisectToast, compareChoices, compareStatus, knobProblem } from './investigate';
import type { ReportDocuments } from './reports';
import { parseNotifyLevel, runToast, type Toast, type ToastAction } from './runToast';
import type { StatusBar } from './statusBar';
import { describeSummary } from './statusModel';

export interface CommandDeps {
  server: ServerConnection;
  status: StatusBar;
  log: vsapi.LogOutputChannel;
  graph: TapeGraphPanel;
  reports: ReportDocuments;
}

export class TapewatchCommands {
  /** Scripts whose run this client started and still awaits (their runFinished is handled here). */
  private readonly inFlight = new Set<string>();

  constructor(private readonly deps: CommandDeps) {}

  register(): vsapi.Disposable[] {
    return [
      vsapi.registerCommand(Commands.runVerification, (arg) => this.runVerification(arg)),
      vsapi.registerCommand(Commands.showTapeGraph, (arg) => this.showTapeGraph(arg)),
      vsapi.registerCommand(Commands.selectDevice, (arg) => this.selectDevice(arg)),
      vsapi.registerCommand(Commands.generateHarness, (arg) => this.generateHarness(arg)),
      vsapi.registerCommand(Commands.restartServer, () => this.deps.server.restart()),
      vsapi.registerCommand(Commands.clearDiagnostics, (arg) => this.clearDiagnostics(arg)),
      vsapi.registerCommand(Commands.clearAllDiagnostics, () => this.clearDiagnostics('all')),
      vsapi.registerCommand(Commands.bisect, (arg, knob) => this.bisect(arg, knob)),
      vsapi.registerCommand(Commands.compareWithPrevious, (arg, before) => this.compareWithPrevious(arg, before)),
      vsapi.registerCommand(Commands.showOutput, () => this.deps.log.show(true)),
      this.deps.server.onRunFinished((params) => this.onRunFinished(params)),
    ];
  }

  async runVerification(arg?: unknown): Promise<RunSummary | undefined> {
    if (!this.requireTrust('run verification')) {
      return undefined;
    }
    const uri = await this.targetScript(arg, true);
    if (!uri) {
      return undefined;
    }
    const key = uri.toString();
    const file = path.basename(uri.fsPath);
    this.inFlight.add(key);
    this.deps.status.update({ running: file });
    void this.deps.graph.running(uri);
    try {
      const result = await this.withProgress(`Tapewatch: verifying ${file}`, ServerCommands.runVerification, [key]);
      const summary = parseRunSummary(result);
      if (!summary) {
        throw new Error('the server answered with an unknown run summary');
      }
      this.finished(uri, summary, true);
      return summary;
    } catch (err) {
      this.deps.status.update({ running: undefined });
      if (!isCancellation(err)) {
        this.deps.log.error(`Verification of ${key}: ${errorText(err)}`);
        void this.offerOutput(`Tapewatch: verification of ${file} failed: ${errorText(err)}`);
      }
      return undefined;
    } finally {
      this.inFlight.delete(key);
    }
  }

  async showTapeGraph(arg?: unknown): Promise<void> {
    const uri = await this.targetScript(arg);
    if (uri) {
      await this.deps.graph.show(uri);
    }
  }

  async selectDevice(arg?: unknown): Promise<void> {
    const uri = this.uriFrom(arg) ?? vsapi.activeDocument()?.uri;
    const current = vsapi.getConfiguration(SECTION, uri).get<string>('device') ?? 'cpu';
    const answer: DeviceAnswer = { trusted: vsapi.isTrusted() };
    if (answer.trusted) {
      answer.interpreter = this.deps.server.interpreterFor(uri);
      try {
        const result = await vsapi.withWindowProgress('Tapewatch: listing devices', () =>
          this.deps.server.executeCommand(ServerCommands.listDevices, uri ? [uri.toString()] : []),
        );
        answer.list = parseDeviceList(result);
        if (!answer.list) {
          answer.error = 'the server answered with an unknown device list';
        }
      } catch (err) {
        answer.error = errorText(err);
      }
      const failure = answer.error ?? answer.list?.error;
      if (failure) {
        this.deps.log.warn(`Could not list devices: ${failure}`);
      }
    }
    const view = devicePick(current, answer);
    const pick = await vsapi.showQuickPick(view.items, { title: view.title, placeHolder: view.placeHolder });
    let device = pick?.label;
    if (device === view.other) {
      device = (
        await vsapi.showInputBox({
          title: view.title,
          prompt: 'Warp device: cpu, cuda or cuda:N',
          value: current,
          validateInput: (value) => deviceNameProblem(value, view.listed),
        })
      )?.trim();
    }
    if (device && device !== current) {
      await vsapi.updateSetting(SECTION, 'device', device, uri);
      this.deps.status.update({ device });
    }
  }

  async generateHarness(arg?: unknown): Promise<void> {
    if (!this.requireTrust('generate and run a harness')) {
      return;
    }
    const uri = await this.targetScript(arg, true);
    if (!uri) {
      return;
    }
    const file = path.basename(uri.fsPath);
    try {
      const result = parseHarnessResult(
        await this.withProgress(`Tapewatch: writing a finite-difference harness for ${file}`, ServerCommands.generateHarness, [uri.toString()]),
      );
      if (result) {
        // The server also asks the editor to show it (window/showDocument).
        this.deps.log.info(`Harness for ${file} written to ${result.path}`);
      }
    } catch (err) {
      if (!isCancellation(err)) {
        this.deps.log.error(`Harness for ${uri.toString()}: ${errorText(err)}`);
        void this.offerOutput(`Tapewatch: could not generate a harness for ${file}: ${errorText(err)}`);
      }
    }
  }

  /**
   * Bisect the script's horizon: FD runs at fewer and fewer steps until AD and
   * FD first diverge (several runs of the user's code: trusted only). The
   * server publishes the finding as a diagnostic; the toast says its first
   * sentence and goes to the step. `knob`: the constant to vary, if named.
   */
  async bisect(arg?: unknown, knob?: unknown): Promise<BisectResult | undefined> {
    if (!this.requireTrust('bisect the horizon')) {
      return undefined;
    }
    const uri = await this.targetScript(arg, true);
    if (!uri) {
      return undefined;
    }
    const file = path.basename(uri.fsPath);
    const args = typeof knob === 'string' && knob !== '' ? [uri.toString(), knob] : [uri.toString()];
    try {
      const result = parseBisectResult(await this.withProgress(`Tapewatch: bisecting the horizon of ${file}`, ServerCommands.bisect, args));
      if (!result) {
        throw new Error('the server answered with an unknown bisection result');
      }
      this.deps.log.info(`Bisection of ${file}: ${result.findings.map((f) => `${f.code} ${f.message}`).join(' | ') || 'no finding'}`);
      this.toast(bisectToast(file, result), uri);
      return result;
    } catch (err) {
      if (!isCancellation(err)) {
        this.deps.log.error(`Bisection of ${uri.toString()}: ${errorText(err)}`);
        void this.offerOutput(`Tapewatch: bisecting ${file} failed: ${errorText(err)}`);
      }
      return undefined;
    }
  }

  /**
   * Compare two kept runs of the script (new, fixed, unchanged, FD errors) as a rendered report: the
   * newest against one the user picks from the kept runs, by default the last one that had findings.
   * `before`: a kept run's path (skips the picker). Reads only.
   */
  async compareWithPrevious(arg?: unknown, before?: unknown): Promise<vsapi.Uri | undefined> {
    const uri = await this.targetScript(arg);
    if (!uri) {
      return undefined;
    }
    const file = path.basename(uri.fsPath);
    try {
      const args: unknown[] = [uri.toString()];
      if (typeof before === 'string' && before !== '') {
        args.push(before);
      } else {
        const runs = parseKeptRuns(await this.deps.server.executeCommand(ServerCommands.listRuns, [uri.toString()]));
        if (runs && runs.length >= 2) {
          const choice = compareChoices(runs);
          const picked = await vsapi.pickWithActive(choice.items, {
            title: `Tapewatch: compare the last run of ${file} (${choice.newest}) with…`,
            placeholder: 'A kept run of this script (.tapewatch/runs); the default is the last one that had findings',
            active: choice.items[choice.defaultIndex],
          });
          if (!picked) {
            return undefined;
          }
          args.push((picked as { run: KeptRun }).run.path, runs[0].path);
        }
      }
      const result = parseCompareResult(await this.deps.server.executeCommand(ServerCommands.compareWithPrevious, args));
      if (!result) {
        throw new Error('the server answered with an unknown comparison');
      }
      vsapi.setStatusBarMessage(compareStatus(file, result), 10_000);
      return await this.deps.reports.show(uri, result.report);
    } catch (err) {
      this.deps.log.error(`Comparison of ${uri.toString()}: ${errorText(err)}`);
      void this.offerOutput(`Tapewatch: could not compare the runs of ${file}: ${errorText(err)}`);
      return undefined;
    }
  }

  /**
   * Withdraw the run diagnostics of one script (the argument, else the active
   * file; its harness's too) or, with 'all' or no file, of every script. Static
   * lints stay: they follow the code.
   */
  async clearDiagnostics(arg?: unknown): Promise<number | undefined> {
    const uri = arg === 'all' ? undefined : (this.uriFrom(arg) ?? vsapi.activeDocument()?.uri);
    const target = uri?.scheme === 'file' ? uri : undefined;
    try {
      const result = await this.deps.server.executeCommand(ServerCommands.clearDiagnostics, target ? [target.toString()] : []);
      const cleared = isObject(result) && typeof result.cleared === 'number' ? result.cleared : 0;
      this.deps.status.cleared(target?.fsPath);
      void this.deps.graph.refresh(target);
      const what = target ? path.basename(target.fsPath) : 'all scripts';
      vsapi.setStatusBarMessage(`Tapewatch: cleared ${cleared} diagnostic${cleared === 1 ? '' : 's'} of ${what}`, 5000);
      return cleared;
    } catch (err) {
      this.deps.log.error(`Clear diagnostics: ${errorText(err)}`);
      void this.offerOutput(`Tapewatch: could not clear the diagnostics: ${errorText(err)}`);
      return undefined;
    }
  }

  /** `tapewatch/runFinished` from the server: also runs it started itself (run on save). */
  private onRunFinished(params: unknown): void {
    if (!isObject(params) || typeof params.uri !== 'string') {
      return;
    }
    const summary = parseRunSummary(params.summary);
    const uri = vsapi.parseUri(params.uri);
    // Our own command's result handles its run, except a cancel through the request
    // token: that answers with an error, and only this notification has what it found.
    if (!summary || (this.inFlight.has(uri.toString()) && summary.status !== 'cancelled')) {
      return;
    }
    this.finished(uri, summary, false);
  }

  private finished(uri: vsapi.Uri, summary: RunSummary, asked: boolean): void {
    const file = path.basename(uri.fsPath);
    this.deps.status.finished(uri, summary);
    void this.deps.graph.refresh(uri);
    if (summary.restored) {
      this.deps.log.info(`${file}: restored the run kept at ${summary.restored.readable_time} (${describeSummary(summary)}): the script is unchanged since.`);
      vsapi.setStatusBarMessage(`Tapewatch: ${file}: restored the run kept at ${summary.restored.readable_time}`, 8000);
      return;
    }
    const why = summary.failure ? `: ${summary.failure.code} ${summary.failure.message}` : '';
    this.deps.log.info(`Run of ${file}: ${describeSummary(summary)}${why}`);
    if (summary.status !== 'failed' && summary.status !== 'cancelled') {
      // The walkthrough's "Run verification" step completes on a run that verified something.
      void vsapi.setContext(CONTEXT_KEYS.verified, true);
    }
    const level = parseNotifyLevel(vsapi.getConfiguration(SECTION, uri).get('showNotifications'));
    const toast = runToast(file, summary, level, asked ? 'command' : 'save');
    if (toast) {
      this.toast(toast, uri);
    }
  }

  /** Show a toast; its buttons act on `uri`. */
  private toast(toast: Toast, uri: vsapi.Uri): void {
    const show = { error: vsapi.showErrorMessage, warning: vsapi.showWarningMessage, information: vsapi.showInformationMessage }[toast.level];
    void show(toast.message, ...toast.actions.map((a) => a.title)).then((pick) => {
      const action = toast.actions.find((a) => a.title === pick);
      if (action) {
        void this.perform(action, uri);
      }
    });
  }

  /** A toast's button. */
  private async perform(action: ToastAction, uri: vsapi.Uri): Promise<void> {
    switch (action.kind) {
      case 'selectInterpreter':
        await selectInterpreter(uri);
        break;
      case 'openSettings':
        await openSetting(action.setting);
        break;
      case 'selectDevice':
        await this.selectDevice(uri);
        break;
      case 'goTo':
        await vsapi.showAt(vsapi.fileUri(action.path), action.line, 1);
        break;
      case 'showGraph':
        await this.deps.graph.show(uri);
        break;
      case 'showOutput':
        this.deps.log.show();
        break;
      case 'askKnob': {
        const knob = await vsapi.showInputBox({
          title: 'Tapewatch: Bisect Horizon',
          prompt: 'The module-level integer constant that sets the number of steps (its loop: for ... in range(CONSTANT))',
          placeHolder: 'STEPS',
          validateInput: (value) => knobProblem(value),
        });
        if (knob) {
          await this.bisect(uri, knob.trim());
        }
        break;
      }
    }
  }

  private async offerOutput(message: string): Promise<void> {
    if ((await vsapi.showErrorMessage(message, 'Show Output')) === 'Show Output') {
      this.deps.log.show();
    }
  }

  private withProgress(title: string, command: string, args: unknown[]): Thenable<unknown> {
    return vsapi.withNotificationProgress(title, (progress, token) => {
      const convert = progressConverter();
      return this.deps.server.executeCommand(command, args, token, (value) => {
        const report = convert(value as LspProgress);
        if (report) {
          progress.report(report);
        }
      });
    });
  }

  private requireTrust(what: string): boolean {
    if (vsapi.isTrusted()) {
      return true;
    }
    const manage = 'Manage Workspace Trust';
    void vsapi
      .showWarningMessage(
        `Tapewatch does not ${what} in an untrusted workspace: that runs the workspace's code. Static lints still work.`,
        manage,
      )
      .then((pick) => {
        if (pick === manage) {
          void vsapi.executeCommand('workbench.trust.manage');
        }
      });
    return false;
  }

  private uriFrom(arg: unknown): vsapi.Uri | undefined {
    if (typeof arg === 'string' && arg !== '') {
      // A code action may name the file by URI or by path.
      return path.isAbsolute(arg) ? vsapi.fileUri(arg) : vsapi.parseUri(arg);
    }
    if (isObject(arg) && typeof arg.scheme === 'string' && typeof arg.fsPath === 'string') {
      return arg as unknown as vsapi.Uri;
    }
    return undefined;
  }

  /** The Python file a command applies to (menu argument, else the active editor); saved before a run. */
  private async targetScript(arg: unknown, save = false): Promise<vsapi.Uri | undefined> {
    const uri = this.uriFrom(arg) ?? vsapi.activeDocument()?.uri;
    if (!uri || uri.scheme !== 'file') {
      void vsapi.showWarningMessage('Tapewatch: open a Python file first.');
      return undefined;
    }
    const doc = await vsapi.openDocument(uri);
    if (doc.languageId !== 'python') {
      void vsapi.showWarningMessage(`Tapewatch: ${path.basename(uri.fsPath)} is not a Python file.`);
      return undefined;
    }
    if (save && doc.isDirty) {
      await doc.save();
    }
    return uri;
  }
}
