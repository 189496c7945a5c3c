import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "./run-tool.js";

const genRoots = ["services/releases/gen", "services/kms/gen", "services/consensus/gen", "tests/gen"];

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else out.push(relative(dir, p));
    }
  };
  await walk(dir);
  return out.sort();
}

const gen = suite("generated code");

gen("should be exactly what regenerating the protos produces", async () => {
  const out = await mkdtemp(join(tmpdir(), "regen-"));
  try {
    const res = spawnSync(process.execPath, ["scripts/generate.js", "--out", out], { cwd: repoRoot, encoding: "utf8" });
    assert.is(res.status, 0, res.stderr);
    for (const dir of genRoots) {
      const committed = await listFiles(join(repoRoot, dir));
      const fresh = await listFiles(join(out, dir));
      assert.ok(fresh.length > 0, `${dir}: nothing generated`);
      assert.equal(committed, fresh, `${dir}: file list differs (run npm run generate)`);
      for (const file of fresh) {
        const a = await readFile(join(repoRoot, dir, file), "utf8");
        const b = await readFile(join(out, dir, file), "utf8");
        assert.ok(a === b, `${dir}/${file} differs from a fresh generation (run npm run generate)`);
      }
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

gen.run();
