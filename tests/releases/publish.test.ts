import { spawnSync } from "node:child_process";
import { chmod, cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "@mc/shared/errors";
import { createFsReleaseStore, readCatalog, runPublish, type ReleaseStore } from "@mc/releases";
import { makeReleaseDir } from "./release-dir.js";

interface Ctx {
  root: string;
}

const pub = suite<Ctx>("releases publish", { root: "" });

pub.before(async (ctx) => {
  ctx.root = await mkdtemp(join(tmpdir(), "publish-"));
});
pub.after(async (ctx) => {
  await rm(ctx.root, { recursive: true, force: true });
});

let n = 0;
async function fresh(ctx: Ctx): Promise<{ storeDir: string; store: ReleaseStore; key: string; work: string }> {
  n += 1;
  const storeDir = join(ctx.root, `store-${n}`);
  return { storeDir, store: await createFsReleaseStore(storeDir), key: join(ctx.root, `key-${n}`), work: join(ctx.root, `work-${n}`) };
}

async function rejects(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a failure");
}

const id1 = "RELEASE.2026-01-10T10-00-00Z";
const id2 = "RELEASE.2026-02-10T10-00-00Z";

pub("should publish checksums and signatures that the real minisign and sha256sum accept", async (ctx) => {
  const { storeDir, store, key, work } = await fresh(ctx);
  const dir = await makeReleaseDir(join(work, "a"), { component: "mc", releaseId: id1 });
  const result = await runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: dir });
  assert.is(result.entry.releaseId, id1, "id read from the document names");
  assert.ok(result.latestChanged);
  assert.is((await stat(key)).mode & 0o777, 0o600);
  const archiveDir = join(storeDir, "client/mc/release/linux-amd64/archive");
  const sum = await readFile(join(archiveDir, `mc.${id1}.sha256sum`), "utf8");
  assert.match(sum, new RegExp(`^[0-9a-f]{64} mc\\.${id1.replace(/\./g, "\\.")}\\n$`));
  const check = spawnSync("sha256sum", ["-c", `mc.${id1}.sha256sum`], { cwd: archiveDir, encoding: "utf8" });
  assert.is(check.status, 0, check.stderr);
  const verify = spawnSync("minisign", ["-Vm", join(archiveDir, `mc.${id1}`), "-p", join(storeDir, "minisign.pub")], { encoding: "utf8" });
  assert.is(verify.status, 0, verify.stderr);
  assert.match(verify.stdout, `file:mc.${id1}`);
  const winAlias = join(storeDir, "client/mc/release/windows-amd64");
  assert.equal((await readdir(winAlias)).sort(), ["archive", "mc.exe", "mc.exe.minisig", "mc.exe.sha256sum"]);
  assert.is(await readFile(join(winAlias, "mc.exe.sha256sum"), "utf8"), await readFile(join(winAlias, `archive/mc.${id1}.sha256sum`), "utf8"));
  for (const doc of [`release-notes-${id1}.md`, `sbom-${id1}.cyclonedx.json`, `sbom-${id1}.spdx.json`, `gomod-${id1}.txt`]) {
    assert.ok((await readFile(join(storeDir, "client/mc/release/notes", doc))).byteLength > 0, doc);
  }
});

pub("should be a no-op for identical bytes and refuse different bytes :: versioned paths are immutable", async (ctx) => {
  const { store, key, work } = await fresh(ctx);
  const dir = await makeReleaseDir(join(work, "a"), { component: "mc", releaseId: id1 });
  await runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: dir });
  const again = await runPublish({ store, keyFile: key, product: "client", component: "mc", from: dir });
  assert.ok(again.unchanged);
  await writeFile(join(dir, "linux-amd64", "mc"), "different bytes");
  const err = await rejects(runPublish({ store, keyFile: key, product: "client", component: "mc", from: dir }));
  assert.is(err.reason, "already_exists");
  assert.is(err.message, "release already exists");
});

pub("should refuse a broken SBOM naming the file and the first schema error", async (ctx) => {
  const { store, key, work } = await fresh(ctx);
  const dir = await makeReleaseDir(join(work, "a"), { component: "mc", releaseId: id1 });
  const cdxPath = join(dir, `sbom-${id1}.cyclonedx.json`);
  const cdx = JSON.parse(await readFile(cdxPath, "utf8")) as Record<string, unknown>;
  await writeFile(cdxPath, JSON.stringify({ ...cdx, components: "not a list" }));
  const err = await rejects(runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: dir }));
  assert.is(err.reason, "invalid_argument");
  assert.match(err.message, `sbom-${id1}.cyclonedx.json: CycloneDX 1.6 schema: /components must be array`);

  await writeFile(cdxPath, JSON.stringify(cdx));
  const spdxPath = join(dir, `sbom-${id1}.spdx.json`);
  const spdx = JSON.parse(await readFile(spdxPath, "utf8")) as Record<string, unknown>;
  await writeFile(spdxPath, JSON.stringify({ ...spdx, dataLicense: "MIT" }));
  const err2 = await rejects(runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: dir }));
  assert.match(err2.message, `sbom-${id1}.spdx.json: SPDX-2.2 schema: /dataLicense must be equal to constant`);
  assert.equal(await readCatalog(store), new Map(), "nothing written");
});

pub("should list every SBOM component that lacks a name, version or license", async (ctx) => {
  const { store, key, work } = await fresh(ctx);
  const dir = await makeReleaseDir(join(work, "a"), { component: "mc", releaseId: id1 });
  const cdxPath = join(dir, `sbom-${id1}.cyclonedx.json`);
  const cdx = JSON.parse(await readFile(cdxPath, "utf8")) as { components: Array<Record<string, unknown>> };
  cdx.components.push({ type: "library", name: "no-license", version: "v1.0.0" }, { type: "library", name: "no-version", licenses: [{ license: { id: "MIT" } }] });
  await writeFile(cdxPath, JSON.stringify(cdx));
  const err = await rejects(runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: dir }));
  assert.match(err.message, "components without a name, version or license: no-license (missing license); no-version (missing version)");
});

pub("should refuse bad input before writing anything", async (ctx) => {
  const { storeDir, store, key, work } = await fresh(ctx);
  const cases: Array<[string, (dir: string) => Promise<void>, Record<string, string>, string]> = [
    ["bad id", async () => undefined, { releaseId: "RELEASE.2024-13-40T25-00-00Z" }, "invalid release id"],
    ["bad platform", async (d) => writeFile(join(d, "plan9-amd64"), ""), {}, "unknown platform folder 'plan9-amd64'"],
    ["bad binary name", async (d) => writeFile(join(d, "linux-amd64", "mcc"), "x"), {}, "linux-amd64/ must hold exactly one binary named 'mc'"],
    ["empty binary", async (d) => writeFile(join(d, "linux-amd64", "mc"), ""), {}, "linux-amd64/mc is empty: a release binary cannot be 0 bytes (nothing was published)"],
    ["empty notes", async (d) => writeFile(join(d, `release-notes-${id1}.md`), "  \n"), {}, "release notes are empty"],
    ["bad gomod", async (d) => writeFile(join(d, `gomod-${id1}.txt`), "main\nx 1.0\n"), {}, `gomod-${id1}.txt: line 2: bad version`],
    ["bad product", async () => undefined, { product: "Client" }, "invalid product 'Client'"],
  ];
  for (const [name, spoil, overrides, message] of cases) {
    const dir = await makeReleaseDir(join(work, name.replace(/ /g, "-")), { component: "mc", releaseId: id1 });
    await spoil(dir);
    const err = await rejects(runPublish({ store, keyFile: key, createKey: true, product: overrides.product ?? "client", component: "mc", releaseId: overrides.releaseId ?? id1, from: dir }));
    assert.match(err.message, message, name);
  }
  assert.equal(await readdir(storeDir), [], "the store stays empty");
});

pub("should refuse a binary that is no regular file in one line, writing nothing :: a link to /dev/zero, a FIFO, a folder, a link to nothing", async (ctx) => {
  const { storeDir, store, key, work } = await fresh(ctx);
  const dir = await makeReleaseDir(join(work, "odd"), { component: "mc", releaseId: id1 });
  const bin = join(dir, "linux-arm64", "mc");
  const cases: Array<[string, () => void, string]> = [
    ["/dev/zero", () => spawnSync("ln", ["-s", "/dev/zero", bin]), "linux-arm64/mc is not a regular file"],
    ["FIFO", () => spawnSync("mkfifo", [bin]), "linux-arm64/mc is not a regular file"],
    ["folder", () => spawnSync("mkdir", [bin]), "linux-arm64/mc is not a regular file"],
    ["link to nothing", () => spawnSync("ln", ["-s", join(dir, "missing"), bin]), "linux-arm64/mc: no such file (a link to nothing?)"],
  ];
  for (const [what, make, message] of cases) {
    await rm(bin, { recursive: true, force: true });
    make();
    const err = await rejects(runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: dir }));
    assert.is(err.message, message, what);
    assert.equal(await readdir(storeDir).catch(() => []), [], `${what}: something was written`);
  }
});

pub("should not move latest for an older release", async (ctx) => {
  const { storeDir, store, key, work } = await fresh(ctx);
  await runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: await makeReleaseDir(join(work, "new"), { component: "mc", releaseId: id2 }) });
  const older = await runPublish({ store, keyFile: key, product: "client", component: "mc", from: await makeReleaseDir(join(work, "old"), { component: "mc", releaseId: id1 }) });
  assert.not.ok(older.latestChanged);
  assert.match(await readFile(join(storeDir, "client/mc/release/linux-amd64/mc.sha256sum"), "utf8"), `mc.${id2}`);
});

pub("should refuse a signing key that does not match the store's minisign.pub, and a key others can read", async (ctx) => {
  const { store, key, work } = await fresh(ctx);
  await runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: await makeReleaseDir(join(work, "a"), { component: "mc", releaseId: id1 }) });
  const otherKey = join(ctx.root, "other.key");
  const err = await rejects(runPublish({ store, keyFile: otherKey, createKey: true, product: "client", component: "mc", from: await makeReleaseDir(join(work, "b"), { component: "mc", releaseId: id2 }) }));
  assert.is(err.message, "the signing key does not match the store's minisign.pub");
  await chmod(key, 0o644);
  const loose = await rejects(runPublish({ store, keyFile: key, product: "client", component: "mc", from: join(work, "b") }));
  assert.match(loose.message, "must have mode 0600");
});

/** A store that dies (throws) at its Nth write: what a kill leaves behind, since each write is atomic. */
function crashingStore(inner: ReleaseStore, crashAt: number): ReleaseStore & { writes: number } {
  const wrapper = {
    ...inner,
    writes: 0,
    async write(path: string, data: Uint8Array) {
      if (wrapper.writes === crashAt) throw new Error(`killed before write ${crashAt} (${path})`);
      wrapper.writes += 1;
      await inner.write(path, data);
    },
  };
  return wrapper;
}

pub("should leave the catalog as it was when killed at any point, and complete when run again", async (ctx) => {
  const { storeDir, store, key, work } = await fresh(ctx);
  await runPublish({ store, keyFile: key, createKey: true, product: "client", component: "mc", from: await makeReleaseDir(join(work, "a"), { component: "mc", releaseId: id1 }) });
  const before = await readCatalog(store);
  const dir = await makeReleaseDir(join(work, "b"), { component: "mc", releaseId: id2 });
  const copyOfBefore = async (name: string): Promise<ReleaseStore> => {
    await cp(storeDir, join(ctx.root, name), { recursive: true });
    return createFsReleaseStore(join(ctx.root, name));
  };
  const probe = crashingStore(await copyOfBefore("probe"), Number.MAX_SAFE_INTEGER);
  await runPublish({ store: probe, keyFile: key, product: "client", component: "mc", from: dir }).catch(() => undefined);
  const total = probe.writes;
  assert.ok(total > 10, `publish made ${total} writes`);
  for (let crashAt = 0; crashAt < total; crashAt++) {
    const s2 = await copyOfBefore(`crash-${crashAt}`);
    const killed = await runPublish({ store: crashingStore(s2, crashAt), keyFile: key, product: "client", component: "mc", from: dir }).then(
      () => false,
      (e: unknown) => e instanceof Error && e.message.startsWith("killed before write"),
    );
    assert.ok(killed, `write ${crashAt} did not crash`);
    assert.equal([...(await readCatalog(s2))], [...before], `catalog changed when killed before write ${crashAt}`);
    // Every alias names an archive whose files are all in place.
    for (const platform of ["linux-amd64", "linux-arm64", "windows-amd64"]) {
      const bin = platform.startsWith("windows") ? "mc.exe" : "mc";
      const sum = await s2.read(`client/mc/release/${platform}/${bin}.sha256sum`);
      if (!sum) continue;
      const named = new TextDecoder().decode(sum).split(" ")[1]?.trim() ?? "";
      for (const suffix of ["", ".sha256sum", ".minisig"]) assert.ok(await s2.stat(`client/mc/release/${platform}/archive/${named}${suffix}`), `${named}${suffix} missing`);
    }
    const done = await runPublish({ store: s2, keyFile: key, product: "client", component: "mc", from: dir });
    assert.ok(done.entry.releaseId === id2);
    assert.is((await readCatalog(s2)).get("client")?.length, 2);
  }
});

pub.run();
