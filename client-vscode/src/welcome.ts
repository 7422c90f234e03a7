/**
 * Opens the Get Started walkthrough on the first activation of a user who
 * has not chosen an interpreter yet (the rules are welcomeModel.ts's). Beside
 * the script that activated the extension, without taking the focus: the
 * interpreter check's notification comes at the same time.
 */

import { errorText } from './common/logging';
import { SECTION } from './common/settings';
import * as vsapi from './common/vscodeapi';
import { FIRST_ACTIVATION_KEY, opensWalkthrough, WALKTHROUGH_ID } from './welcomeModel';

/** The configured `tapewatch.interpreter` in any scope (a workspace value counts too). */
function configuredInterpreter(): string | undefined {
  const seen = vsapi.getConfiguration(SECTION, vsapi.activeDocument()?.uri).inspect<string>('interpreter');
  return [seen?.workspaceFolderValue, seen?.workspaceValue, seen?.globalValue].find((v) => typeof v === 'string' && v.trim());
}

export async function welcomeOnFirstActivation(context: vsapi.ExtensionContext, log: vsapi.LogOutputChannel): Promise<void> {
  const activatedBefore = context.globalState.get<boolean>(FIRST_ACTIVATION_KEY) === true;
  const open = opensWalkthrough({
    activatedBefore,
    interpreterSetting: configuredInterpreter(),
    openOnInstall: vsapi.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true),
  });
  if (!activatedBefore) {
    await context.globalState.update(FIRST_ACTIVATION_KEY, true);
  }
  if (!open) {
    return;
  }
  log.info('First activation and no tapewatch.interpreter: opening the Get Started walkthrough.');
  try {
    // (walkthrough, toSide): beside the active editor, which keeps the focus.
    await vsapi.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, true);
  } catch (err) {
    log.warn(`Opening the walkthrough: ${errorText(err)}`);
  }
}
