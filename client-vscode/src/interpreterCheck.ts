/**
 * Asks the interpreter for its devices each time the server starts, so that
 * an interpreter without Warp is named (with the buttons that fix it) before
 * the user's first run fails on it. Never in an untrusted workspace: that
 * would run the interpreter on the workspace's behalf; trust restarts the
 * server, and the check runs then.
 */

import { ServerCommands } from './common/constants';
import { errorText } from './common/logging';
import type { ServerConnection } from './common/server';
import * as vsapi from './common/vscodeapi';
import { openSetting, selectInterpreter } from './fixes';
import { parseDeviceList } from '../shared/protocol';
import { interpreterToast } from './runToast';

export function checkInterpreterOnStart(server: ServerConnection, log: vsapi.LogOutputChannel): vsapi.Disposable {
  return server.onDidStart(() => void check(server, log));
}

async function check(server: ServerConnection, log: vsapi.LogOutputChannel): Promise<void> {
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
    return;
  }
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
