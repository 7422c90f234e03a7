/**
 * Tapewatch for VS Code: wires the language server, the commands, the status
 * bar and the tape-graph view together. Each piece lives in its own module.
 */

import { TapewatchCommands } from './commands';
import { EXTENSION_NAME } from './common/constants';
import { ServerConnection } from './common/server';
import { SECTION } from './common/settings';
import { checkInterpreterOnStart } from './interpreterCheck';
import * as vsapi from './common/vscodeapi';
import { TapeGraphPanel } from './graph/panel';
import { ReportDocuments } from './reports';
import { ServerStatus } from './serverStatus';
import { StatusBar } from './statusBar';
import { welcomeOnFirstActivation } from './welcome';

let server: ServerConnection | undefined;

function configuredDevice(): string {
  return vsapi.getConfiguration(SECTION, vsapi.activeDocument()?.uri).get<string>('device') || 'cpu';
}

export async function activate(context: vsapi.ExtensionContext): Promise<void> {
  const log = vsapi.createLogChannel(EXTENSION_NAME);
  const connection = new ServerConnection(context, log);
  server = connection;
  const status = new StatusBar(configuredDevice());
  const serverStatus = new ServerStatus();
  // The view's "Run verification" button calls back into the commands (only after activation).
  const graph: TapeGraphPanel = new TapeGraphPanel(context, connection, log, (uri) => void commands.runVerification(uri));
  const reports = new ReportDocuments(log);
  const commands = new TapewatchCommands({ server: connection, status, log, graph, reports });

  context.subscriptions.push(
    log,
    status,
    serverStatus,
    reports,
    ...commands.register(),
    checkInterpreterOnStart(connection, log, (result) => {
      serverStatus.update({ warp: 'error' in result ? { error: result.error } : { version: result.version, devices: result.devices } });
      if (!('error' in result)) {
        status.clearFailures(); // a run that failed for want of Warp no longer speaks for the file
      }
    }),
    connection.onDidChangeState(() => {
      status.update({ serverDown: connection.startError });
      const phase = connection.phase;
      serverStatus.update({
        phase,
        interpreter: connection.serverInterpreter,
        error: connection.startError,
        ...(phase === 'starting' ? { warp: undefined } : {}),
      });
    }),
    vsapi.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.device`)) {
        status.update({ device: configuredDevice() });
      }
    }),
    // The device setting is per folder: follow the file in front.
    vsapi.onDidChangeActiveTextEditor(() => status.update({ device: configuredDevice() })),
    vsapi.onDidGrantWorkspaceTrust(() => status.update({})),
  );
  // Not awaited: the walkthrough opens while the server starts.
  void welcomeOnFirstActivation(context, log);
  await connection.restart();
}

export async function deactivate(): Promise<void> {
  await server?.dispose();
  server = undefined;
}
