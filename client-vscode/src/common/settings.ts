/**
 * The `tapewatch.*` settings: read raw values, expand VS Code's variables, and
 * produce the object the server expects (docs/protocol.md, "Settings").
 *
 * Pure: the caller passes what it read from `workspace.getConfiguration`.
 * The server owns validation (server/tapewatch/lsp/settings.py): values go
 * through as the user wrote them, variables expanded, and the server reports
 * each invalid one and uses its default. The client reads only what it needs
 * itself: the interpreter that starts the server.
 */

export const SECTION = 'tapewatch';

/** The keys of the section (package.json `contributes.configuration`, docs/protocol.md). */
export const SETTING_KEYS = ['interpreter', 'device', 'timeout', 'cwd', 'args', 'env', 'runOnSave', 'lint', 'checkLaunches'] as const;

/** Settings only the client reads (package.json has them too; never sent to the server). */
export const CLIENT_SETTING_KEYS = ['showNotifications'] as const;

/** Settings whose change needs a new server process (they pick its interpreter). */
export const RESTART_KEYS = ['interpreter'] as const;

/**
 * What the server receives: the section's values, variables expanded, not
 * validated. Unset keys are left out (the server's default).
 */
export type ServerSettings = Record<string, unknown>;

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
  /** `tapewatch.interpreter` when it is a path (trimmed, expanded): the client starts the server with it. */
  interpreter?: string;
  /** One line per variable the client could not expand (the server reports invalid values). */
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
 * Expand the raw settings. `raw` holds the section's values
 * (`getConfiguration('tapewatch').get(key)` for each key); they pass through
 * unchecked, strings in `interpreter`, `cwd`, `args` and `env` expanded.
 */
export function resolveSettings(raw: RawSettings, ctx: SettingsContext): ResolvedSettings {
  const problems: string[] = [];
  const expand = (key: string, value: unknown, trim = false): unknown => {
    if (typeof value !== 'string') {
      return value; // the server says what is wrong with it
    }
    const notes: string[] = [];
    // A path's surrounding blanks are never meant (and `~/` must come first); an argument's may be.
    const out = expandVariables(trim ? value.trim() : value, ctx, notes);
    for (const n of notes) {
      problems.push(`tapewatch.${key}: ${n}`);
    }
    return out;
  };

  const settings: ServerSettings = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) {
      continue;
    }
    if (key === 'interpreter' || key === 'cwd') {
      settings[key] = expand(key, value, true);
    } else if (key === 'args' && Array.isArray(value)) {
      settings[key] = value.map((a: unknown) => expand(key, a));
    } else if (key === 'env' && isPlainObject(value)) {
      settings[key] = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, expand(key, v)]));
    } else {
      settings[key] = value;
    }
  }

  if (!ctx.trusted) {
    // The server runs scripts on save by itself; in an untrusted workspace it must not.
    settings.runOnSave = false;
  }
  const interpreter = settings.interpreter;
  return { settings, interpreter: typeof interpreter === 'string' && interpreter !== '' ? interpreter : undefined, problems };
}

/** Unset, null or blank: the server would use its default. */
export function isUnset(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
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
