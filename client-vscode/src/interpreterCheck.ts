/**
 * Asks the interpreter for its devices each time the server starts, so that
 * an interpreter without Warp is named (with the buttons that fix it) before
 * the user's first run fails on it. Never in an untrusted workspace: that
 * would run the interpreter on the workspace's behalf; trust restarts the
 * server, and the check runs then.
 */

import { CONTEXT_KEYS, ServerCommands } from './common/constants';
import { errorText } from './common/logging';
import type { ServerConnection } from './common/server';
import * as vsapi from './common/vscodeapi';
import { openSetting, selectInterpreter } from './fixes';
import { parseDeviceList } from '../shared/protocol';
import { interpreterToast } from './runToast';

/** What a check found: Warp's version and devices, or why the interpreter cannot import it. */
export type CheckResult = { interpreter?: string; version: string; devices: string[] } | { interpreter?: string; error: string };

/**
 * `onResult` hears every check's outcome (the language status item shows it). A
 * check that finds Warp right after one that did not (the user fixed the
 * interpreter) says so once: nothing else would confirm the fix.
 */
export function checkInterpreterOnStart(server: ServerConnection, log: vsapi.LogOutputChannel, onResult: (result: CheckResult) => void = () => undefined): vsapi.Disposable {
  let lastFailed = false;
  return server.onDidStart(
    () =>
      void check(server, log, (result) => {
        onResult(result);
        const failed = 'error' in result;
        const recovered = server.startFailedSinceCheck;
        server.startFailedSinceCheck = false;
        if ((lastFailed || recovered) && !failed) {
          void vsapi.showInformationMessage(`Tapewatch: ${result.interpreter ?? 'the interpreter'} has Warp ${result.version || '?'} (${result.devices.join(', ') || 'no devices'}): ready to run verification.`);
        }
        lastFailed = failed;
      }),
  );
}

async function check(server: ServerConnection, log: vsapi.LogOutputChannel, report: (result: CheckResult) => void): Promise<void> {
  if (!vsapi.isTrusted()) {
    return;
  }
  let list;
  try {
    list = parseDeviceList(await server.executeCommand(ServerCommands.listDevices, []));
  } catch (err) {
    log.warn(`Interpreter check: ${errorText(err)}`);
    return;
  }
  if (!list) {
    return;
  }
  const interpreter = server.interpreterFor(undefined);
  if (!list.error) {
    log.info(`Interpreter check: ${interpreter ?? 'the interpreter'} has Warp ${list.warp_version || '?'} (${list.devices.join(', ') || 'no devices'}).`);
    void vsapi.setContext(CONTEXT_KEYS.interpreterReady, true);
    report({ interpreter, version: list.warp_version, devices: list.devices });
    return;
  }
  void vsapi.setContext(CONTEXT_KEYS.interpreterReady, false);
  report({ interpreter, error: list.error });
  const toast = interpreterToast(interpreter, list.error, server.interpreterSource === 'path');
  log.warn(toast.message);
  const pick = await vsapi.showWarningMessage(toast.message, ...toast.actions.map((a) => a.title));
  const action = toast.actions.find((a) => a.title === pick);
  if (action?.kind === 'selectInterpreter') {
    await selectInterpreter();
  } else if (action?.kind === 'openSettings') {
    await openSetting(action.setting);
  }
}
