// Puts the language server and its Python dependencies inside the extension,
// so the user's interpreter only needs Warp:
//   client-vscode/bundled/tool/tapewatch   the package (server/tapewatch) + docs/diagnostics
//   client-vscode/bundled/libs             pygls, lsprotocol, cattrs, attrs, ... (pure Python)
// The dependencies are those of pyproject.toml, resolved for the oldest
// supported Python (3.9) as pure-Python wheels, so one bundle serves every
// interpreter and platform. Needs Python 3.11+ with pip ($PYTHON, default python3).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundled = path.join(root, 'client-vscode', 'bundled');
const tool = path.join(bundled, 'tool');
const libs = path.join(bundled, 'libs');
const python = process.env.PYTHON || 'python3';
const OLDEST_PYTHON = '3.9';

function run(cmd, args) {
  return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

rmSync(bundled, { recursive: true, force: true });
mkdirSync(libs, { recursive: true });

// 1. The tapewatch package, without caches.
const skip = (src) => !/(^|[\\/])(__pycache__|.*\.pyc)$/.test(src);
cpSync(path.join(root, 'server', 'tapewatch'), path.join(tool, 'tapewatch'), { recursive: true, filter: skip });
const docs = path.join(root, 'docs', 'diagnostics');
if (existsSync(docs)) {
  // codes.docs_dir() looks for the catalogue pages next to the package.
  cpSync(docs, path.join(tool, 'tapewatch', 'docs', 'diagnostics'), { recursive: true });
}

// 2. Its dependencies, as declared in pyproject.toml, for the oldest supported
// Python. `pip download --python-version` honours Requires-Python but judges
// environment markers by the running interpreter, so the backports that only
// older Pythons need (exceptiongroup, ...) are added in a second pass.
const deps = JSON.parse(
  run(python, ['-c', "import json, tomllib; print(json.dumps(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))"]),
);
console.log(`bundle-python: ${deps.join(', ')} for Python ${OLDEST_PYTHON}+ into ${path.relative(root, libs)}`);
const wheels = path.join(bundled, 'wheels');
const RESOLVE = `
import json, subprocess, sys, zipfile
from email.parser import Parser
from pathlib import Path
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.utils import canonicalize_name, parse_wheel_filename

wheels, target, reqs = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
env = {"python_version": target, "python_full_version": target + ".0", "extra": ""}

def download(specs):
    subprocess.check_call([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--no-cache-dir", "--only-binary=:all:", "--implementation", "py", "--python-version", target,
        "--dest", str(wheels), *specs])

download(reqs)
while True:
    have = {canonicalize_name(parse_wheel_filename(w.name)[0]) for w in wheels.glob("*.whl")}
    missing = set()
    for w in wheels.glob("*.whl"):
        with zipfile.ZipFile(w) as z:
            meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
            headers = Parser().parsestr(z.read(meta).decode("utf-8"))
        for line in headers.get_all("Requires-Dist") or []:
            req = Requirement(line)
            if (req.marker is None or req.marker.evaluate(env)) and canonicalize_name(req.name) not in have:
                req.marker = None
                missing.add(str(req))
    if not missing:
        break
    download(sorted(missing))
`;
run(python, ['-c', RESOLVE, wheels, OLDEST_PYTHON, JSON.stringify(deps)]);
run(python, [
  '-m', 'pip', 'install',
  '--quiet', '--disable-pip-version-check', '--no-cache-dir', '--no-deps', '--no-index',
  '--target', libs,
  ...readdirSync(wheels).filter((n) => n.endsWith('.whl')).map((n) => path.join(wheels, n)),
]);
rmSync(wheels, { recursive: true, force: true });

// 3. Nothing but pure Python, no scripts, no caches.
rmSync(path.join(libs, 'bin'), { recursive: true, force: true });
const walk = (dir) => readdirSync(dir).flatMap((n) => {
  const p = path.join(dir, n);
  return statSync(p).isDirectory() ? [p, ...walk(p)] : [p];
});
for (const p of walk(bundled).reverse()) {
  if (path.basename(p) === '__pycache__') {
    rmSync(p, { recursive: true, force: true });
  } else if (/\.(so|pyd|dylib)$/.test(p)) {
    throw new Error(`bundle-python: ${p} is a native module; the bundle must be pure Python`);
  }
}
const dists = readdirSync(libs).filter((n) => n.endsWith('.dist-info')).map((n) => n.replace(/\.dist-info$/, '')).sort();
writeFileSync(path.join(bundled, 'VERSIONS.txt'), dists.join('\n') + '\n');
console.log(`bundle-python: ${dists.join(' ')}`);
