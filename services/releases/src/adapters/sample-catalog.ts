import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCatalogEntry } from "../domain/catalog-reader.js";
import { binaryName, parsePlatform } from "../domain/names.js";
import type { ReleaseStore } from "../domain/release-store.js";
import type { CatalogEvents } from "./catalog-events.js";
import { runPublish } from "./publish-command.js";
import { runSbom } from "./sbom-command.js";

interface SampleRelease {
  readonly product: string;
  readonly component: string;
  readonly releaseId: string;
  readonly notes: string;
}

const platforms = ["linux-amd64", "linux-arm64", "linux-ppc64le", "windows-amd64"];

const goModules = (main: string): string =>
  [main, "github.com/dustin/go-humanize v1.0.1", "github.com/klauspost/compress v1.17.9", "golang.org/x/sys v0.25.0 => golang.org/x/sys v0.26.0", ""].join("\n");

const licenses = {
  "github.com/minio/mc": "AGPL-3.0-or-later",
  "github.com/minio/minio": "AGPL-3.0-or-later", "github.com/dustin/go-humanize": "MIT", "github.com/klauspost/compress": "Apache-2.0 AND BSD-3-Clause", "golang.org/x/sys": "BSD-3-Clause" };

export const sampleReleases: readonly SampleRelease[] = [
  ["client", "mc", "RELEASE.2026-09-02T08-30-00Z", "Adds `mc od` progress output.\n\n- `mc mirror --watch` reacts faster.\n- Fixes a crash in `mc ls --versions`."],
  ["client", "mc", "RELEASE.2026-10-07T12-00-00Z", "Speeds up multipart uploads.\n\n## Fixes\n\n- `mc cp` keeps metadata on copies.\n- `mc find --exec` reports the child's exit status."],
  ["client", "mc", "RELEASE.2026-11-18T09-15-00Z", "Adds `mc admin kms key status`.\n\nSee the [documentation](https://example.com/docs) for details."],
  ["server", "minio", "RELEASE.2026-09-10T16-45-00Z", "Improves healing throughput.\n\n- Faster listing of versioned buckets."],
  ["server", "minio", "RELEASE.2026-10-21T06-00-00Z", "Adds SSE-KMS key rotation.\n\n- Lower memory use under load."],
  ["server", "minio", "RELEASE.2026-11-19T14-30-00Z", "Security fixes.\n\n- Tightens bucket policy parsing."],
].map(([product = "", component = "", releaseId = "", notes = ""]) => ({ product, component, releaseId, notes }));

/** A small, deterministic stand-in for a binary of one platform. */
function sampleBinary(r: SampleRelease, platform: string): Uint8Array {
  const out = new Uint8Array(48 * 1024);
  let block = createHash("sha256").update(`${r.component}/${r.releaseId}/${platform}`).digest();
  for (let i = 0; i < out.length; i += block.length) {
    out.set(block.subarray(0, Math.min(block.length, out.length - i)), i);
    block = createHash("sha256").update(block).digest();
  }
  return out;
}

/**
 * Publishes the sample catalog of the embedded default through the real
 * publishing path (`releases sbom`, then `releases publish`), skipping
 * releases already in the store. Returns how many it published.
 */
export async function publishSampleCatalog(store: ReleaseStore, keyFile: string, events?: CatalogEvents): Promise<number> {
  const work = await mkdtemp(join(tmpdir(), "sample-catalog-"));
  let published = 0;
  try {
    for (const r of sampleReleases) {
      // SBOMs carry a fresh serial number and time, so a second publish of
      // the same id would differ: skip what the store already has.
      if (await readCatalogEntry(store, r.product, r.component, r.releaseId)) continue;
      const dir = join(work, `${r.component}-${r.releaseId}`);
      for (const p of platforms) {
        const platform = parsePlatform(p);
        if (!platform) continue;
        await mkdir(join(dir, p), { recursive: true });
        await writeFile(join(dir, p, binaryName(r.component, platform.os)), sampleBinary(r, p));
      }
      await writeFile(join(dir, `release-notes-${r.releaseId}.md`), `# ${r.component} ${r.releaseId}\n\n${r.notes}\n`);
      await writeFile(join(dir, `gomod-${r.releaseId}.txt`), goModules(`github.com/minio/${r.component}`));
      await writeFile(join(dir, "licenses.json"), JSON.stringify(licenses));
      await runSbom({ from: join(dir, `gomod-${r.releaseId}.txt`), licenses: join(dir, "licenses.json"), component: r.component, releaseId: r.releaseId });
      await rm(join(dir, "licenses.json"));
      const result = await runPublish({ store, keyFile, createKey: true, product: r.product, component: r.component, releaseId: r.releaseId, from: dir, ...(events ? { events } : {}) });
      if (!result.unchanged) published += 1;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return published;
}
