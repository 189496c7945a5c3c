#!/usr/bin/env node
// Regenerates the generated code. With --out DIR, writes the
// trees under DIR instead (the test suite uses that to check for drift).
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// proto/<svc> -> services/<svc>/gen, and the test-only protos -> tests/gen.
const targets = [
  ...["releases", "kms", "consensus"].map((svc) => ({ path: `proto/${svc}`, out: join("services", svc) })),
  { path: "tests/proto/echo", out: "tests" },
];

const outIndex = process.argv.indexOf("--out");
const outRoot = outIndex > 0 ? process.argv[outIndex + 1] : root;
const buf = join(root, "node_modules", ".bin", "buf");

for (const { path, out } of targets) {
  execFileSync(buf, ["generate", "--path", path, "-o", join(outRoot, out)], {
    cwd: root,
    stdio: "inherit",
  });
}
