/**
 * The `tapewatch.*` settings: read raw values, expand variables, validate, and
 * produce the object the server expects (docs/protocol.md, "Settings").
 *
 * Pure: the caller passes what it read from `workspace.getConfiguration`.
 * An invalid value is reported and left out, so the server uses its default.
 */

export const SECTION = 'tapewatch';

/** The keys of the section (package.json `contributes.configuration`, docs/protocol.md). */
export const SETTING_KEYS = ['interpreter', 'device', 'timeout', 'cwd', 'args', 'env', 'runOnSave', 'lint', 'checkLaunches'] as const;

/** Settings whose change needs a new server process (they pick its interpreter). */
export const RESTART_KEYS = ['interpreter'] as const;

/** What the server receives. Optional keys are left out to mean "server default". */
export interface ServerSettings {
  interpreter?: string;
  device?: string;
  timeout?: number;
  cwd?: string;
  args?: string[];
  env?: Record<string, string>;
  runOnSave?: boolean;
  lint?: boolean;
  checkLaunches?: boolean;
}

/** The raw values of the section as VS Code returns them (anything, really). */
export type RawSettings = Record<string, unknown>;

export interface VariableContext {
  /** Folder of the resource the settings apply to, if any. */
  workspaceFolder?: string;
  userHome: string;
  env: Record<string, string | undefined>;
}

export interface SettingsContext extends VariableContext {
  /** Workspace trust. Untrusted: never ask the server to run code on its own. */
  trusted: boolean;
}

export interface ResolvedSettings {
  settings: ServerSettings;
  /** One line per value that was invalid and left out. */
  problems: string[];
}

const VARIABLE = /\$\{([A-Za-z]+)(?::([^}]*))?\}/g;

/**
 * Expand `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`,
 * `${env:NAME}` and a leading `~/`. Unknown variables, and `${workspaceFolder}`
 * without a folder, stay as written and are reported through `problems`.
 */
export function expandVariables(value: string, ctx: VariableContext, problems?: string[]): string {
  let out = value.replace(VARIABLE, (whole, name: string, arg: string | undefined) => {
    switch (name) {
      case 'workspaceFolder':
      case 'workspaceFolderBasename':
        if (ctx.workspaceFolder === undefined) {
          problems?.push(`${whole} used without a workspace folder`);
          return whole;
        }
        return name === 'workspaceFolder' ? ctx.workspaceFolder : basename(ctx.workspaceFolder);
      case 'userHome':
        return ctx.userHome;
      case 'env':
        return arg ? (ctx.env[arg] ?? '') : whole;
      default:
        problems?.push(`unknown variable ${whole}`);
        return whole;
    }
  });
  if (out === '~' || out.startsWith('~/')) {
    out = ctx.userHome + out.slice(1);
  }
  return out;
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts.length ? parts[parts.length - 1] : path;
}

/**
 * Validate and expand the raw settings. `raw` holds the section's values
 * (`getConfiguration('tapewatch').get(key)` for each key).
 */
export function resolveSettings(raw: RawSettings, ctx: SettingsContext): ResolvedSettings {
  const problems: string[] = [];
  const settings: ServerSettings = {};
  const bad = (key: string, why: string) => problems.push(`tapewatch.${key}: ${why}; using the default`);
  const expand = (key: string, value: string) => {
    const notes: string[] = [];
    const out = expandVariables(value, ctx, notes);
    for (const n of notes) {
      problems.push(`tapewatch.${key}: ${n}`);
    }
    return out;
  };

  const interpreter = raw.interpreter;
  if (typeof interpreter === 'string') {
    if (interpreter.trim() !== '') {
      settings.interpreter = expand('interpreter', interpreter.trim());
    }
  } else if (interpreter !== undefined && interpreter !== null) {
    bad('interpreter', 'expected a path');
  }

  const device = raw.device;
  if (typeof device === 'string' && /^[A-Za-z0-9_.:-]+$/.test(device.trim())) {
    settings.device = device.trim();
  } else if (device !== undefined && device !== null && device !== '') {
    bad('device', `${JSON.stringify(device)} is not a device name such as "cpu" or "cuda:0"`);
  }

  const timeout = raw.timeout;
  if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0) {
    settings.timeout = timeout;
  } else if (timeout !== undefined && timeout !== null) {
    bad('timeout', 'expected a number of seconds greater than 0');
  }

  const cwd = raw.cwd;
  if (typeof cwd === 'string') {
    if (cwd.trim() !== '') {
      settings.cwd = expand('cwd', cwd.trim());
    }
  } else if (cwd !== undefined && cwd !== null) {
    bad('cwd', 'expected a folder path');
  }

  const args = raw.args;
  if (Array.isArray(args) && args.every((a) => typeof a === 'string')) {
    settings.args = args.map((a: string) => expand('args', a));
  } else if (args !== undefined && args !== null) {
    bad('args', 'expected a list of strings');
  }

  const env = raw.env;
  if (isPlainObject(env)) {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        problems.push(`tapewatch.env: ${JSON.stringify(name)} is not a variable name; left out`);
      } else if (typeof value !== 'string') {
        problems.push(`tapewatch.env: ${name} must be a string; left out`);
      } else {
        out[name] = expand('env', value);
      }
    }
    settings.env = out;
  } else if (env !== undefined && env !== null) {
    bad('env', 'expected an object of strings');
  }

  for (const key of ['runOnSave', 'lint', 'checkLaunches'] as const) {
    const value = raw[key];
    if (typeof value === 'boolean') {
      settings[key] = value;
    } else if (value !== undefined && value !== null) {
      bad(key, 'expected true or false');
    }
  }

  if (!ctx.trusted) {
    // The server runs scripts on save by itself; in an untrusted workspace it must not.
    settings.runOnSave = false;
  }
  return { settings, problems };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `initializationOptions`: the protocol accepts `{settings: {...}}`. */
export function initializationOptions(settings: ServerSettings): { settings: ServerSettings } {
  return { settings };
}

/** `workspace/didChangeConfiguration` params: `{settings: {tapewatch: {...}}}`. */
export function didChangeConfigurationParams(settings: ServerSettings): { settings: { tapewatch: ServerSettings } } {
  return { settings: { [SECTION]: settings } as { tapewatch: ServerSettings } };
}
