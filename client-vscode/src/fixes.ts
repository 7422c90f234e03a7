/**
 * The buttons that fix a setting: shared by the run toasts and the interpreter
 * check at server start.
 */

import { PYTHON_EXTENSION_ID } from './common/constants';
import { SECTION } from './common/settings';
import * as vsapi from './common/vscodeapi';

/** Open the Settings UI at one setting (`tapewatch.interpreter`, ...). */
export function openSetting(key: string): Thenable<unknown> {
  return vsapi.executeCommand('workbench.action.openSettings', key);
}

/**
 * Let the user pick the interpreter. The Python extension's picker only
 * matters while `tapewatch.interpreter` is empty (the setting wins over it),
 * and is absent where that extension is not installed: then a file picker
 * for the Python executable, written to the setting (not the Settings page,
 * which "Open Settings" already opens).
 */
export async function selectInterpreter(scope?: vsapi.Uri): Promise<unknown> {
  const setting = vsapi.getConfiguration(SECTION, scope).get<string>('interpreter')?.trim();
  if (!setting && vsapi.extensionInstalled(PYTHON_EXTENSION_ID)) {
    return vsapi.executeCommand('python.setInterpreter');
  }
  const picked = await vsapi.pickFile('Tapewatch: the Python interpreter that has Warp (for example .venv/bin/python)', setting || vsapi.workspaceFolderPath(scope));
  if (picked) {
    await vsapi.updateSetting(SECTION, 'interpreter', picked, scope);
  }
  return picked;
}
