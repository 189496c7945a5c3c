// Issue 19: the Node version the README names is one every dependency accepts
// (no EBADENGINE on `npm ci`), `engines` says so, and `npm start`/`npm test`
// (scripts/bootstrap.sh, their pre-hook) refuse another Node with one line.
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "./doc-fixtures.js";
import { lowestVersions, nodeFits } from "./node-engines.js";

const test = suite("the Node version");

interface Lock {
  packages: Record<string, { engines?: { node?: string }; optional?: boolean }>;
}

const engines = async (): Promise<string> => ((JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as { engines: { node: string } }).engines.node);

test("engine ranges: the forms npm packages use", () => {
  assert.ok(nodeFits("20.19.0", "^20.19.0 || ^22.13.0 || >=24"));
  assert.not.ok(nodeFits("22.12.0", "^20.19.0 || ^22.13.0 || >=24"));
  assert.ok(nodeFits("20.19.0", ">= 18.x"));
  assert.not.ok(nodeFits("20.19.0", ">= 22.x"));
  assert.ok(nodeFits("20.1.0", "20 || >=22"));
  assert.not.ok(nodeFits("21.0.0", "20 || >=22"));
  assert.equal(lowestVersions("^20.19.0 || ^22.13.0 || >=24"), ["20.19.0", "22.13.0", "24.0.0"]);
});

test("every package of the lock accepts the lowest Node of each range `engines` names, and this machine's Node fits", async () => {
  const range = await engines();
  assert.ok(nodeFits(process.versions.node, range), `this machine's Node ${process.versions.node} is outside engines ${range}`);
  const lock = JSON.parse(await readFile(join(repoRoot, "package-lock.json"), "utf8")) as Lock;
  const refused: string[] = [];
  for (const [path, p] of Object.entries(lock.packages)) {
    const wants = p.engines?.node;
    if (path === "" || p.optional || wants === undefined) continue;
    for (const v of lowestVersions(range)) if (!nodeFits(v, wants)) refused.push(`${path.replace(/^.*node_modules\//, "")} wants Node ${wants}, refusing ${v}`);
  }
  assert.equal(refused, [], `engines says ${range}, but:\n${refused.join("\n")}`);
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  assert.match(readme, `Node ${lowestVersions(range)[0]?.replace(/\.0$/, "")}`, "the README names another Node version");
});

test("npm start and npm test (scripts/bootstrap.sh) refuse a Node outside engines with one line, and go on with this one", async () => {
  const dir = await mkdtemp(join(tmpdir(), "node-version-"));
  try {
    // A `node` that reports another version and runs the real one for everything else.
    const fake = join(dir, "node");
    await writeFile(fake, `#!/bin/sh\n[ "$1 $2" = "-p process.versions.node" ] && { echo "$FAKE_NODE_VERSION"; exit 0; }\nexec "${process.execPath}" "$@"\n`);
    await chmod(fake, 0o755);
    // Without the test run's colour settings: Node warns on stderr when both are set.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NO_COLOR" && k !== "FORCE_COLOR"));
    const bootstrap = (version: string): ReturnType<typeof spawnSync> =>
      spawnSync("bash", [join(repoRoot, "scripts", "bootstrap.sh")], { env: { ...env, FAKE_NODE_VERSION: version, PATH: `${dir}:${process.env["PATH"] ?? ""}` }, encoding: "utf8" });
    const range = await engines();
    for (const old of ["18.20.4", "20.6.0", "22.12.0"]) {
      const r = bootstrap(old);
      assert.is(r.status, 1, `Node ${old}: ${String(r.stderr)}`);
      assert.is(r.stdout, "");
      assert.is(String(r.stderr), `mc-platform needs Node ${range}; this is Node ${old} (${fake}): install a Node that fits and run again\n`);
    }
    const ok = bootstrap(process.versions.node);
    assert.is(ok.status, 0, String(ok.stderr));
    assert.is(String(ok.stderr), "");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
