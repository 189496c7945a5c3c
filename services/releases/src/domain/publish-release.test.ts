import { createHash } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "@mc/shared/errors";
import type { MinisignPublicKey } from "@mc/wasm";
import { readCatalogEntry } from "./catalog-reader.js";
import { checksumSuffix, layout, signatureSuffix } from "./layout.js";
import { publishRelease, type PublishDeps, type ReleaseSource } from "./publish-release.js";
import type { ReleaseStore } from "./release-store.js";

const id = "RELEASE.2026-03-01T00-00-00Z";
const platforms = ["linux-amd64", "linux-arm64", "darwin-arm64", "windows-amd64"];
const sha256Hex = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");
const binaryOf = (platform: string): Uint8Array => new TextEncoder().encode(`the mc binary for ${platform}\n`.repeat(100));

/** The files of a release directory, each read returning a fresh copy. */
function files(): Map<string, Uint8Array> {
  const docs: Array<[string, string]> = [
    [`release-notes-${id}.md`, "# mc\n\nFixes.\n"],
    [`sbom-${id}.cyclonedx.json`, "{}"],
    [`sbom-${id}.spdx.json`, "{}"],
    [`gomod-${id}.txt`, "example.com/mc\n"],
  ];
  return new Map<string, Uint8Array>([
    ...platforms.map((p): [string, Uint8Array] => [`${p}/${p.startsWith("windows") ? "mc.exe" : "mc"}`, binaryOf(p)]),
    ...docs.map(([name, text]): [string, Uint8Array] => [name, new TextEncoder().encode(text)]),
  ]);
}

/**
 * A source that reuses a binary's memory as a streaming reader would: each
 * read wipes every binary it handed out before (documents are small and kept
 * whole). Publishing that used a binary's bytes after reading the next one
 * would write zeros.
 */
function wipingSource(content: Map<string, Uint8Array>, edit?: (path: string, reads: number) => Uint8Array | undefined): ReleaseSource & { reads: number } {
  const handed: Uint8Array[] = [];
  const source = {
    reads: 0,
    list: async () => [...new Set([...content.keys()].map((k) => k.split("/")[0] ?? ""))].sort(),
    listDir: async (dir: string) => [...content.keys()].filter((k) => k.startsWith(`${dir}/`)).map((k) => k.slice(dir.length + 1)),
    async read(path: string) {
      for (const b of handed.splice(0)) b.fill(0);
      source.reads += 1;
      const bytes = new Uint8Array(edit?.(path, source.reads) ?? content.get(path) ?? new Uint8Array(0));
      if (path.includes("/")) handed.push(bytes);
      return bytes;
    },
  };
  return source;
}

function memoryStore(): ReleaseStore & { files: Map<string, Uint8Array> } {
  const stored = new Map<string, Uint8Array>();
  return {
    files: stored,
    read: async (path) => (stored.has(path) ? new Uint8Array(stored.get(path) ?? []) : undefined),
    stat: async (path) => (stored.has(path) ? { size: stored.get(path)?.byteLength ?? 0, modified: new Date(0) } : undefined),
    list: async (dir) => [...new Set([...stored.keys()].filter((k) => k.startsWith(`${dir}/`)).map((k) => k.slice(dir.length + 1).split("/")[0] ?? ""))].sort(),
    write: async (path, data) => void stored.set(path, new Uint8Array(data)),
    openRead: async () => undefined,
  };
}

/** Signs with the hash of the bytes, so a signature shows which bytes it was made of. */
function deps(store: ReleaseStore): PublishDeps {
  return {
    store,
    signer: {
      publicKey: {} as MinisignPublicKey,
      publicKeyFile: () => "untrusted comment: test key\nRWTEST\n",
      sign: (data) => `signed ${sha256Hex(data)}`,
      verify: (data, signature) => assert.is(signature, `signed ${sha256Hex(data)}`),
    },
    sha256Hex,
    validateSbom: () => [],
    now: () => new Date("2026-03-01T00:00:00Z"),
  };
}

const publish = suite("publishRelease: one binary in memory at a time");

publish("should write each archive, alias, checksum and signature from its own bytes while the source reuses its memory", async () => {
  const store = memoryStore();
  const result = await publishRelease({ product: "client", component: "mc", releaseId: id, source: wipingSource(files()) }, deps(store));
  assert.is(result.entry.platforms.length, platforms.length);
  for (const p of platforms) {
    const [os, arch = ""] = p.split("-") as ["linux" | "darwin" | "windows", string];
    const want = sha256Hex(binaryOf(p));
    const archive = layout.archive("client", "mc", os, arch, id);
    const alias = layout.latest("client", "mc", os, arch);
    for (const path of [archive, alias]) {
      assert.is(sha256Hex(store.files.get(path) ?? new Uint8Array(0)), want, `${path} holds other bytes`);
      assert.is(new TextDecoder().decode(store.files.get(path + signatureSuffix)), `signed ${want}`, `${path}${signatureSuffix}`);
      assert.match(new TextDecoder().decode(store.files.get(path + checksumSuffix)), want);
    }
    assert.is(result.entry.platforms.find((f) => f.os === os && f.arch === arch)?.sha256, want);
  }
});

publish("should refuse a binary that changes between its reads, leaving the catalog without the release", async () => {
  const store = memoryStore();
  const content = files();
  let seen = 0;
  // linux-arm64/mc is read once to be hashed and signed, then again to be written: the second time it differs.
  const source = wipingSource(content, (path) => (path === "linux-arm64/mc" && ++seen === 2 ? new TextEncoder().encode("replaced meanwhile") : undefined));
  const err = await publishRelease({ product: "client", component: "mc", releaseId: id, source }, deps(store)).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, AppError);
  assert.is((err as AppError).reason, "aborted");
  assert.match((err as AppError).message, "linux-arm64/mc changed while it was being published");
  assert.is(await readCatalogEntry(store, "client", "mc", id), undefined);
  assert.not.ok([...store.files.keys()].some((k) => k.includes("linux-arm64")), "nothing of the changed binary was written");
});

publish.run();
