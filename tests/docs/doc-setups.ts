// What a block assumes the reader already has, made before it runs
// (`<!-- run: KIND with=NAME -->`): files in the working folder, or shell
// lines (with the fixture's substitutions applied) run right before the block.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runSbom } from "@mc/releases";
import { goModules, licenses } from "../releases/release-dir.js";
import type { Fixture } from "./doc-fixtures.js";

/** The release the docs' publish recipes name. */
export const docReleaseId = "RELEASE.2026-11-20T10-00-00Z";

async function releaseInputs(fx: Fixture): Promise<string> {
  const dist = join(fx.cwd, "dist");
  for (const p of ["linux-amd64", "windows-amd64"]) {
    await mkdir(join(dist, p), { recursive: true });
    await writeFile(join(dist, p, p.startsWith("windows") ? "mc.exe" : "mc"), `mc ${docReleaseId} ${p}\n`.repeat(100));
  }
  await writeFile(join(dist, `release-notes-${docReleaseId}.md`), `# mc ${docReleaseId}\n\nFrom the docs.\n`);
  await writeFile(join(dist, `gomod-${docReleaseId}.txt`), goModules);
  await writeFile(join(fx.cwd, "licenses.json"), JSON.stringify(licenses));
  return "";
}

export const setups: Record<string, (fx: Fixture) => Promise<string>> = {
  /** dist/ with binaries, notes and the Go modules list, and licenses.json: what `releases sbom` reads. */
  "release-inputs": releaseInputs,
  /** dist/ complete, the SBOMs made: what `releases publish` reads. */
  async "release-dir"(fx) {
    // Made once per fixture: publishing the same release again with other SBOM bytes would be refused (409).
    if (existsSync(join(fx.cwd, "dist", `sbom-${docReleaseId}.spdx.json`))) return "";
    await releaseInputs(fx);
    await runSbom({ from: join(fx.cwd, "dist", `gomod-${docReleaseId}.txt`), licenses: join(fx.cwd, "licenses.json"), component: "mc", releaseId: docReleaseId });
    return "";
  },
  /** The root API key and the CA of the fixture's KMS, as the KMS README assumes. */
  async "kms-env"(fx) {
    if (!fx.kms) throw new Error(`with=kms-env needs a KMS; the ${fx.kind} fixture has none`);
    return `export KMS_API_KEY='${fx.kms.apiKey}' KMS_CA='${fx.kms.caFile}'\n`;
  },
  /** An alias `user` whose fresh API key the KMS does not know (the troubleshooting row's starting point). */
  async "kms-user"() {
    return `mc alias set user https://127.0.0.1:7373 --api-key "$(kms apikey new | sed -n 's/^API Key  *//p')" >/dev/null\n`;
  },
  /** A node configuration kms.yaml (a fresh HSM key, data in ./data) and a certificate client.crt. */
  async "kms-files"(fx) {
    const yaml = ["version: v1", "address: 127.0.0.1:7373", "data_dir: data", "tls:", "  cert: server.crt", "  key: server.key", "hsm:", `  key: hsm:aes256:${randomBytes(32).toString("base64")}`, "enclaves: [default]", ""];
    await writeFile(join(fx.cwd, "kms.yaml"), yaml.join("\n"));
    return "openssl req -x509 -newkey ed25519 -nodes -keyout client.key -out client.crt -subj /CN=client -days 1 2>/dev/null\n";
  },
  /** A folder ./photos with a few files. */
  async photos(fx) {
    await mkdir(join(fx.cwd, "photos", "2026"), { recursive: true });
    for (const name of ["a.jpg", "b.jpg", "2026/c d.jpg"]) await writeFile(join(fx.cwd, "photos", name), `photo ${name}\n`);
    return "";
  },
};
