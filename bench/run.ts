// `npm run bench [name]`: runs every bench/*.bench.ts (or those whose name
// contains the argument), one child process each, one after the other so
// they do not compete for the two cores.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// The peers the benchmarks compare against (nginx, wrk, ...) come from Debian.
const deps = spawnSync("bash", [join(here, "..", "scripts", "system-deps.sh"), "bench"], { stdio: "inherit" });
if (deps.status !== 0) process.exit(deps.status ?? 1);
const filter = process.argv[2] ?? "";
const files = readdirSync(here).filter((f) => f.endsWith(".bench.ts") && f.includes(filter)).sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== ${file}\n`);
  const res = spawnSync(process.execPath, ["--import", "tsx", join(here, file)], { stdio: "inherit" });
  if (res.status !== 0) failed += 1;
}
if (files.length === 0) process.stdout.write(`no benchmark matches '${filter}'\n`);
process.exitCode = failed > 0 ? 1 : 0;
