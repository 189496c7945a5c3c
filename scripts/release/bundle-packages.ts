// Which npm packages are inside the mc executable, read from esbuild's
// metafile of the very bundle that went in (not from package.json's wish
// list): every input under node_modules/<name>/ is that package, at the
// version and with the license its installed package.json declares, checked
// against package-lock.json's resolved entry. The repository's own workspace
// packages (@mc/cli, @mc/shared, ...) are in it too; they carry the license of
// mc itself (cli/package.json), as their package.json files name none.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface BundledPackage {
  /** npm name, `@scope/name` or `name`. */
  readonly name: string;
  readonly version: string;
  /** SPDX license id or expression. */
  readonly license: string;
  /** Folder relative to the repository root: `node_modules/a/node_modules/b`, `services/kms`. */
  readonly dir: string;
  /** Folders (`dir`) of the bundled packages it depends on, as node resolves them. */
  readonly dependsOn: readonly string[];
  /** The tarball URL and `sha512-…` integrity of the lockfile; absent for workspace packages. */
  readonly resolved?: string;
  readonly integrity?: string;
  readonly workspace: boolean;
}

interface PackageJson {
  name?: string;
  version?: string;
  license?: unknown;
  licenses?: unknown;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

/** The package folder holding one metafile input (the innermost node_modules/<name>), else undefined. */
export function packageDirOf(input: string): string | undefined {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return undefined;
  const rest = input.slice(at + "node_modules/".length).split("/");
  const name = rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1] ?? ""}` : rest[0];
  return name ? `${input.slice(0, at)}node_modules/${name}` : undefined;
}

/** A package.json license as one SPDX expression (old `licenses: [{type}]` arrays joined with OR). */
export function licenseOf(pkg: PackageJson): string | undefined {
  if (typeof pkg.license === "string" && pkg.license.trim() !== "") return pkg.license.trim();
  const list = Array.isArray(pkg.licenses) ? pkg.licenses : pkg.license !== undefined ? [pkg.license] : [];
  const types = list.map((l) => (typeof l === "string" ? l : typeof l === "object" && l !== null ? (l as { type?: unknown }).type : undefined)).filter((t): t is string => typeof t === "string");
  return types.length === 0 ? undefined : types.length === 1 ? types[0] : `(${types.join(" OR ")})`;
}

/** Where node finds `dep` from `dir`: a workspace package, else the nearest node_modules up the tree. */
function resolveDir(dir: string, dep: string, known: ReadonlySet<string>, workspaces: ReadonlyMap<string, string>): string | undefined {
  const workspace = workspaces.get(dep);
  if (workspace !== undefined) return known.has(workspace) ? workspace : undefined;
  let base = dir;
  for (;;) {
    const candidate = `${base}/node_modules/${dep}`.replace(/^\//, "");
    if (known.has(candidate)) return candidate;
    const up = base.lastIndexOf("/node_modules/");
    if (up < 0) break;
    base = base.slice(0, up);
  }
  return known.has(`node_modules/${dep}`) ? `node_modules/${dep}` : undefined;
}

/**
 * The packages of a bundle: `inputs` are the metafile's input paths relative
 * to `root`. Throws naming any package without a version or a license (an
 * SBOM that cannot say what a component is, is no use).
 */
export function bundledPackages(root: string, inputs: readonly string[]): BundledPackage[] {
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(root, "package-lock.json")).packages;
  const workspaceDirs = Object.keys(lock).filter((k) => k !== "" && !k.includes("node_modules/"));
  const workspaces = new Map(workspaceDirs.map((w) => [readJson<PackageJson>(join(root, w, "package.json")).name ?? w, w]));
  const mcLicense = licenseOf(readJson<PackageJson>(join(root, "cli", "package.json")));
  const dirs = new Set<string>();
  for (const input of inputs) {
    const dir = packageDirOf(input) ?? workspaceDirs.filter((w) => input.startsWith(`${w}/`)).sort((a, b) => b.length - a.length)[0];
    if (dir !== undefined) dirs.add(dir);
  }
  const problems: string[] = [];
  const out = [...dirs].sort().map((dir): BundledPackage => {
    const pkg = readJson<PackageJson>(join(root, dir, "package.json"));
    const entry = lock[dir];
    const workspace = !dir.includes("node_modules/");
    const name = pkg.name ?? dir;
    const version = pkg.version ?? "";
    const license = licenseOf(pkg) ?? (workspace ? mcLicense : undefined) ?? "";
    if (version === "" || license === "") problems.push(`${dir}: ${version === "" ? "no version" : "no license"}`);
    if (!workspace && entry?.version !== undefined && entry.version !== version) problems.push(`${dir}: installed ${version}, package-lock.json says ${entry.version} (run npm ci)`);
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies });
    return {
      name,
      version,
      license,
      dir,
      dependsOn: deps.flatMap((d) => {
        const found = resolveDir(dir, d, dirs, workspaces);
        return found === undefined ? [] : [found];
      }),
      ...(entry?.resolved ? { resolved: entry.resolved } : {}),
      ...(entry?.integrity ? { integrity: entry.integrity } : {}),
      workspace,
    };
  });
  if (problems.length > 0) throw new Error(`bundled packages without what an SBOM needs: ${problems.join("; ")}`);
  return out;
}
