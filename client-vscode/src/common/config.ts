/**
 * Reads the `tapewatch` section from VS Code and turns it into the server's
 * settings (glue between vscodeapi and the pure `settings` module).
 */

import * as os from 'node:os';
import type { Uri } from 'vscode';
import { isUnset, resolveSettings, SECTION, SETTING_KEYS, type RawSettings, type ResolvedSettings } from './settings';
import { getConfiguration, isTrusted, workspaceFolderPath } from './vscodeapi';

export function readRawSettings(scope?: Uri): RawSettings {
  const config = getConfiguration(SECTION, scope);
  const raw: RawSettings = {};
  for (const key of SETTING_KEYS) {
    raw[key] = config.get(key);
  }
  return raw;
}

/**
 * The settings for `scope` (a document or folder; none: the first folder).
 * `runInterpreter` fills `interpreter` when the setting is unset or blank (the
 * Python extension's environment the server was started with); a value of the
 * wrong type still goes to the server, which reports it.
 */
export function readSettings(scope: Uri | undefined, runInterpreter: string | undefined): ResolvedSettings {
  const resolved = resolveSettings(readRawSettings(scope), {
    workspaceFolder: workspaceFolderPath(scope),
    userHome: os.homedir(),
    env: process.env,
    trusted: isTrusted(),
  });
  if (isUnset(resolved.settings.interpreter) && runInterpreter !== undefined) {
    resolved.settings.interpreter = runInterpreter;
    resolved.interpreter = runInterpreter;
  }
  return resolved;
}
