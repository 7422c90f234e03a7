/**
 * Which Python runs the language server (and, through the `interpreter`
 * setting, the user's scripts).
 *
 * Order, as in Microsoft's python-tools extension template:
 *   1. the `tapewatch.interpreter` setting;
 *   2. the Python extension's active environment, when `ms-python.python` is
 *      installed (optional: everything works without it);
 *   3. `python3` on PATH (`python` on Windows).
 *
 * Pure apart from `activeEnvironment`, which talks to the Python extension's
 * API object handed to it (duck-typed, so it is testable with a stub).
 */

/** pygls 2 (bundled) needs Python 3.9 or later. */
export const MIN_PYTHON: readonly [number, number] = [3, 9];

export type InterpreterSource = 'setting' | 'python-extension' | 'path';

export interface PythonEnvironment {
  /** Absolute path of the executable. */
  path: string;
  /** Known when the Python extension resolved the environment. */
  version?: { major: number; minor: number; micro?: number };
}

export interface InterpreterChoice {
  command: string;
  source: InterpreterSource;
  /** Lines worth logging: what was skipped and why. */
  notes: string[];
}

export interface ChoiceInputs {
  /** `tapewatch.interpreter`, variables already expanded; empty means unset. */
  setting?: string;
  /** The Python extension's active environment, if it is installed and has one. */
  pythonExtension?: PythonEnvironment;
  /**
   * Workspace trust. In an untrusted workspace the Python extension's
   * environment is ignored: it may be an interpreter inside the workspace,
   * and starting the server runs it. (VS Code already hides the workspace's
   * value of the restricted `tapewatch.interpreter` setting there.)
   */
  trusted: boolean;
  platform: string;
}

export function defaultPython(platform: string): string {
  return platform === 'win32' ? 'python' : 'python3';
}

export function chooseInterpreter(inputs: ChoiceInputs): InterpreterChoice {
  const notes: string[] = [];
  const setting = inputs.setting?.trim();
  if (setting) {
    return { command: setting, source: 'setting', notes };
  }
  const env = inputs.pythonExtension;
  if (env) {
    if (!inputs.trusted) {
      notes.push(`Ignoring the Python extension's environment ${env.path} in an untrusted workspace.`);
    } else if (env.version && !atLeast(env.version, MIN_PYTHON)) {
      notes.push(
        `The Python extension's environment ${env.path} is Python ${env.version.major}.${env.version.minor}; ` +
          `Tapewatch needs ${MIN_PYTHON.join('.')} or later.`,
      );
    } else {
      return { command: env.path, source: 'python-extension', notes };
    }
  }
  return { command: defaultPython(inputs.platform), source: 'path', notes };
}

function atLeast(v: { major: number; minor: number }, min: readonly [number, number]): boolean {
  return v.major > min[0] || (v.major === min[0] && v.minor >= min[1]);
}

/**
 * The `interpreter` the server should use for runs: what the user chose.
 * Unset when the server runs on plain `python3`, whose runs default to the
 * server's own interpreter anyway.
 */
export function runInterpreter(choice: InterpreterChoice): string | undefined {
  return choice.source === 'path' ? undefined : choice.command;
}

// ---------------------------------------------------------------------------
// The Python extension's API (`ms-python.python` exports), only the parts used.

export interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: unknown): { id: string; path: string } | undefined;
    resolveEnvironment(env: { id: string; path: string } | string): Promise<ResolvedPythonEnv | undefined>;
    onDidChangeActiveEnvironmentPath?: (listener: () => void) => { dispose(): void };
  };
}

interface ResolvedPythonEnv {
  executable?: { uri?: { fsPath: string } };
  version?: { major?: number; minor?: number; micro?: number };
}

/** Ask the Python extension for the active environment of `resource`. Never throws. */
export async function activeEnvironment(api: PythonExtensionApi | undefined, resource?: unknown): Promise<PythonEnvironment | undefined> {
  try {
    const envs = api?.environments;
    if (!envs || typeof envs.getActiveEnvironmentPath !== 'function') {
      return undefined;
    }
    const active = envs.getActiveEnvironmentPath(resource);
    if (!active) {
      return undefined;
    }
    const resolved = typeof envs.resolveEnvironment === 'function' ? await envs.resolveEnvironment(active) : undefined;
    const path = resolved?.executable?.uri?.fsPath || active.path;
    if (!path) {
      return undefined;
    }
    const v = resolved?.version;
    const version =
      v && typeof v.major === 'number' && typeof v.minor === 'number' ? { major: v.major, minor: v.minor, micro: v.micro } : undefined;
    return { path, version };
  } catch {
    return undefined;
  }
}
