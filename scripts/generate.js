#!/usr/bin/env node
// Regenerates services/<svc>/gen from proto/<svc>. With --out DIR, writes the
// trees under DIR instead (the test suite uses that to check for drift).
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const generatedServices = ["releases", "kms", "consensus"];

const outIndex = process.argv.indexOf("--out");
const outRoot = outIndex > 0 ? process.argv[outIndex + 1] : root;
const buf = join(root, "node_modules", ".bin", "buf");

for (const svc of generatedServices) {
  execFileSync(buf, ["generate", "--path", `proto/${svc}`, "-o", join(outRoot, "services", svc)], {
    cwd: root,
    stdio: "inherit",
  });
}
