// Runs the shell recipes of the KMS docs verbatim: a recipe is the ```sh
// block after `<!-- recipe: NAME -->`. `mc` and `npx kms` resolve to this
// checkout through shims on PATH; HOME is the test's, so `~/.mc` is its mc
// config. The substitutions are addresses: the docs name the default
// 127.0.0.1:7373 (and example hosts), the test's nodes listen on free ports.
import { spawn } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cleanEnv, mcBin, repoRoot, type McResult } from "./mc-runner.js";

const kmsBin = join(repoRoot, "services", "kms", "bin", "kms.js");

/** The recipe's text, exactly as the document has it. */
export async function recipeOf(doc: string, name: string): Promise<string> {
  const text = await readFile(join(repoRoot, doc), "utf8");
  const marker = `<!-- recipe: ${name} -->\n\`\`\`sh\n`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${doc} has no recipe ${name}`);
  const start = at + marker.length;
  return text.slice(start, text.indexOf("\n```", start) + 1);
}

/** A bin folder with `mc` and `npx` (for `npx kms`) of this checkout. */
export async function writeShims(dir: string): Promise<string> {
  const bin = join(dir, "bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, "mc"), `#!/bin/sh\nexec "${process.execPath}" "${mcBin}" "$@"\n`);
  await writeFile(join(bin, "npx"), `#!/bin/sh\n[ "$1" = kms ] || { echo "shim: only npx kms" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${kmsBin}" "$@"\n`);
  await chmod(join(bin, "mc"), 0o755);
  await chmod(join(bin, "npx"), 0o755);
  return bin;
}

export interface RecipeRun {
  readonly home: string;
  readonly cwd: string;
  readonly bin: string;
  readonly host: string;
  readonly env?: Record<string, string | undefined>;
  /** Further documented values and the test's own (e.g. a documented host name and the node's address). */
  readonly replace?: Readonly<Record<string, string>>;
}

/** `bash -e -o pipefail` over the recipe (every line must succeed), with the address replaced. */
export function runRecipe(recipe: string, r: RecipeRun): Promise<McResult> {
  let script = recipe.replaceAll("127.0.0.1:7373", r.host);
  for (const [from, to] of Object.entries(r.replace ?? {})) script = script.replaceAll(from, to);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd: r.cwd,
      env: cleanEnv({ ...r.env, HOME: r.home, PATH: `${r.bin}:${process.env["PATH"] ?? ""}` }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
}
