/**
 * How the language server process is started: `<python> -m tapewatch lsp`
 * over stdio, with the server's code on PYTHONPATH.
 *
 * Packaged (.vsix): `bundled/tool` holds the `tapewatch` package and
 * `bundled/libs` its dependencies (pygls, lsprotocol, cattrs, attrs, ...),
 * both under `client-vscode/`, so the user's interpreter only needs Warp.
 * From the repository (extension development): `server/` holds the live
 * `tapewatch` package, plus `bundled/libs` when `npm run bundle:python` made it
 * (otherwise the interpreter must have pygls installed).
 *
 * Pure: the caller passes the file-system probe and the environment.
 */

export const SERVER_MODULE_ARGS: readonly string[] = ['-m', 'tapewatch', 'lsp'];

export interface Layout {
  /** Root of the extension (where package.json is). */
  extensionRoot: string;
  /** True when VS Code runs the extension in development mode. */
  development: boolean;
  exists(path: string): boolean;
  /** Path joiner for the platform (`path.join`). */
  join(...parts: string[]): string;
  /** PYTHONPATH separator (`path.delimiter`). */
  delimiter: string;
}

export interface ServerCode {
  mode: 'bundled' | 'development';
  /** Folder holding the `tapewatch` package. */
  toolDir: string;
  /** PYTHONPATH entries, in order. */
  pythonPath: string[];
}

export function locateServerCode(layout: Layout): ServerCode | undefined {
  const bundled = layout.join(layout.extensionRoot, 'client-vscode', 'bundled');
  const tool = layout.join(bundled, 'tool');
  const libs = layout.join(bundled, 'libs');
  const repoServer = layout.join(layout.extensionRoot, 'server');
  const hasTool = layout.exists(layout.join(tool, 'tapewatch', '__init__.py'));
  const hasRepo = layout.exists(layout.join(repoServer, 'tapewatch', '__init__.py'));
  const hasLibs = layout.exists(libs);

  // In development the live sources win over a stale bundle.
  if (hasRepo && (layout.development || !hasTool)) {
    return { mode: 'development', toolDir: repoServer, pythonPath: hasLibs ? [repoServer, libs] : [repoServer] };
  }
  if (hasTool) {
    return { mode: 'bundled', toolDir: tool, pythonPath: hasLibs ? [tool, libs] : [tool] };
  }
  return undefined;
}

export interface ServerLaunch {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * The process to spawn (no shell). Its working directory is the folder of
 * the `tapewatch` package, never the workspace: `python -m` puts the working
 * directory first on `sys.path`, and a workspace file named like one of the
 * server's modules must not be imported by it.
 */
export function serverLaunch(python: string, code: ServerCode, baseEnv: Record<string, string | undefined>, delimiter: string): ServerLaunch {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(baseEnv)) {
    if (v !== undefined) {
      env[k] = v;
    }
  }
  const inherited = env.PYTHONPATH ? [env.PYTHONPATH] : [];
  env.PYTHONPATH = [...code.pythonPath, ...inherited].join(delimiter);
  env.PYTHONUNBUFFERED = '1';
  env.PYTHONIOENCODING = 'utf-8';
  return { command: python, args: [...SERVER_MODULE_ARGS], cwd: code.toolDir, env };
}

/** One line for the log: the exact command and the PYTHONPATH it gets. */
export function describeLaunch(launch: ServerLaunch): string {
  return `${[launch.command, ...launch.args].map(quoteIfNeeded).join(' ')} (cwd ${launch.cwd}, PYTHONPATH=${launch.env.PYTHONPATH})`;
}

function quoteIfNeeded(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : JSON.stringify(s);
}
