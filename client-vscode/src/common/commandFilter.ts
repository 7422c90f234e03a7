/**
 * Keeps vscode-languageclient from registering, as VS Code commands, the
 * server commands the extension registers itself. Type imports only, so the
 * unit tests load it without VS Code.
 */

import type {
  ClientCapabilities,
  DocumentSelector,
  DynamicFeature,
  ExecuteCommandRegistrationOptions,
  FeatureState,
  RegistrationData,
  ServerCapabilities,
} from 'vscode-languageclient';

/**
 * Command ids. vscode-languageclient registers every command in the server's
 * `executeCommandProvider` as a VS Code command. The server lists
 * `tapewatch.runVerification` and `tapewatch.generateHarness`, which the
 * extension registers itself (package.json: palette, menus, keybindings; with
 * trust checks, saving, progress and cancellation), so the library's
 * registration would throw "command already exists" — on start and again on
 * every restart. We keep the ids the user sees and filter the library's
 * registration: it skips the ids in `clientOwned` and still registers the
 * server's other commands (`tapewatch.listDevices`, and any that code actions
 * or code lenses name). Our handlers send `workspace/executeCommand`
 * themselves (`ServerConnection.executeCommand`); a code action naming
 * `tapewatch.runVerification` reaches the same handler.
 */
export class ExecuteCommandsExcept implements DynamicFeature<ExecuteCommandRegistrationOptions> {
  constructor(
    private readonly inner: DynamicFeature<ExecuteCommandRegistrationOptions>,
    private readonly clientOwned: ReadonlySet<string>,
  ) {}
  get registrationType() {
    return this.inner.registrationType;
  }
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    this.inner.fillClientCapabilities(capabilities);
  }
  getState(): FeatureState {
    return this.inner.getState();
  }
  initialize(capabilities: ServerCapabilities, selector: DocumentSelector | undefined): void {
    const provider = capabilities.executeCommandProvider;
    this.inner.initialize(provider ? { ...capabilities, executeCommandProvider: this.filter(provider) } : capabilities, selector);
  }
  register(data: RegistrationData<ExecuteCommandRegistrationOptions>): void {
    this.inner.register({ ...data, registerOptions: this.filter(data.registerOptions) });
  }
  unregister(id: string): void {
    this.inner.unregister(id);
  }
  clear(): void {
    this.inner.clear();
  }
  private filter(options: ExecuteCommandRegistrationOptions): ExecuteCommandRegistrationOptions {
    return { ...options, commands: (options.commands ?? []).filter((c) => !this.clientOwned.has(c)) };
  }
}

/** Commands that run the workspace's code: never offered by a code action in an untrusted workspace. */
export const RUNS_CODE: ReadonlySet<string> = new Set(['tapewatch.generateHarness', 'tapewatch.runVerification', 'tapewatch.bisect']);

/**
 * The server's code actions as offered in a workspace of this trust: untrusted, none that runs the
 * workspace's code (the harness would run the script; the command itself refuses anyway, but the
 * lightbulb should not offer it). Pure.
 */
export function actionsForTrust<T extends { command?: unknown }>(actions: T[], trusted: boolean): T[] {
  if (trusted) {
    return actions;
  }
  return actions.filter((a) => {
    const command = a.command;
    const id = typeof command === 'string' ? command : typeof command === 'object' && command !== null ? (command as { command?: unknown }).command : undefined;
    return !(typeof id === 'string' && RUNS_CODE.has(id));
  });
}
