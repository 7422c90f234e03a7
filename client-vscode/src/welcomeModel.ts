/**
 * What a new user gets on the extension's first activation: the Get Started
 * walkthrough, opened once, beside the script that activated the extension.
 * Pure, unit-tested; welcome.ts reads the state and opens it.
 *
 * VS Code itself opens an extension's walkthrough when the extension is
 * installed from the gallery in the running window
 * (`workbench.welcomePage.walkthroughs.openOnInstall`). It does not for a
 * `.vsix` installed from the command line, on a remote machine before the
 * first connection, or by a script, which is how Tapewatch often arrives
 * beside a GPU. So the extension opens it itself, once per user, and only
 * for someone who has not set `tapewatch.interpreter` yet: a user who has
 * chosen the interpreter is past the walkthrough's first step. The same
 * setting that stops VS Code from opening walkthroughs on install stops this
 * one.
 */

/** `<publisher>.<name>#<walkthrough id>` (package.json `contributes.walkthroughs`). */
export const WALKTHROUGH_ID = 'tapewatch.tapewatch#gettingStarted';

/** The global-state key that records that the first activation has happened. */
export const FIRST_ACTIVATION_KEY = 'tapewatch.firstActivationDone';

export interface WelcomeInputs {
  /** The global-state flag: an earlier activation has already decided. */
  activatedBefore: boolean;
  /** `tapewatch.interpreter` as configured (any scope), unexpanded; empty or undefined when unset. */
  interpreterSetting: string | undefined;
  /** `workbench.welcomePage.walkthroughs.openOnInstall` (VS Code's default: true). */
  openOnInstall: boolean;
}

/** Whether this activation opens the walkthrough. */
export function opensWalkthrough(inputs: WelcomeInputs): boolean {
  if (inputs.activatedBefore || !inputs.openOnInstall) {
    return false;
  }
  return !inputs.interpreterSetting?.trim();
}
