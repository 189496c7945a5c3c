import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "@mc/shared/errors";
import type { ReleaseStore } from "@mc/releases";

export interface StoreEnv {
  setup(): Promise<ReleaseStore>;
  teardown(): Promise<void>;
}

async function bytesOf(stream: AsyncIterable<Uint8Array> | undefined): Promise<Buffer> {
  assert.ok(stream, "expected a stream");
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** The contract every release store adapter passes: the directory tree and S3 alike. */
export function defineStoreSuite(name: string, env: StoreEnv): void {
  const t = suite<{ store: ReleaseStore }>(name, { store: undefined as never });
  t.before(async (ctx) => {
    ctx.store = await env.setup();
  });
  t.after(() => env.teardown());

  t("should round-trip bytes and replace a file whole", async ({ store }) => {
    const data = new Uint8Array(300000).map((_, i) => (i * 7) % 256);
    await store.write("client/mc/release/linux-amd64/archive/mc.RELEASE.2026-01-01T00-00-00Z", data);
    assert.ok(Buffer.from((await store.read("client/mc/release/linux-amd64/archive/mc.RELEASE.2026-01-01T00-00-00Z")) ?? []).equals(Buffer.from(data)));
    await store.write("client/mc/release/linux-amd64/mc", new TextEncoder().encode("old"));
    await store.write("client/mc/release/linux-amd64/mc", new TextEncoder().encode("new bytes"));
    assert.is(new TextDecoder().decode(await store.read("client/mc/release/linux-amd64/mc")), "new bytes");
    const s = await store.stat("client/mc/release/linux-amd64/mc");
    assert.is(s?.size, 9);
    assert.ok(s && Math.abs(s.modified.getTime() - Date.now()) < 60000);
  });

  t("should answer undefined for what is not there", async ({ store }) => {
    assert.is(await store.read("client/none/release/notes/x.md"), undefined);
    assert.is(await store.stat("client/none"), undefined);
    assert.is(await store.openRead("client/none/x"), undefined);
    assert.equal(await store.list("nothing/here"), []);
  });

  t("should list files and folders directly under a folder, sorted", async ({ store }) => {
    const enc = new TextEncoder();
    await store.write("_catalog/client/mc/RELEASE.2026-02-01T00-00-00Z.json", enc.encode("{}"));
    await store.write("_catalog/client/mc/RELEASE.2026-01-01T00-00-00Z.json", enc.encode("{}"));
    await store.write("_catalog/client/other/RELEASE.2026-01-01T00-00-00Z.json", enc.encode("{}"));
    await store.write("_catalog/server/minio/RELEASE.2026-01-01T00-00-00Z.json", enc.encode("{}"));
    assert.equal(await store.list("_catalog"), ["client", "server"]);
    assert.equal(await store.list("_catalog/client"), ["mc", "other"]);
    assert.equal(await store.list("_catalog/client/mc"), ["RELEASE.2026-01-01T00-00-00Z.json", "RELEASE.2026-02-01T00-00-00Z.json"]);
  });

  t("should stream a whole file or a byte range", async ({ store }) => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 17).map((_, i) => i % 251);
    await store.write("big/file", data);
    assert.ok((await bytesOf(await store.openRead("big/file"))).equals(data));
    assert.ok((await bytesOf(await store.openRead("big/file", { start: 1048570, end: 2097160 }))).equals(data.subarray(1048570, 2097161)));
    assert.ok((await bytesOf(await store.openRead("big/file", { start: data.byteLength - 1, end: data.byteLength - 1 }))).equals(data.subarray(-1)));
  });

  t("should refuse paths that could leave the layout", async ({ store }) => {
    for (const bad of ["", "../x", "a/../../x", "a//b", "./a", "a/./b", "a\\..\\b", "a\0b", "/abs"]) {
      let err: unknown;
      try {
        await store.read(bad);
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof AppError && err.reason === "invalid_argument", `accepted '${bad}'`);
    }
  });

  t("should let readers see the old or the new file during a replace, never a mix", async ({ store }) => {
    const a = Buffer.alloc(512 * 1024, 0x41);
    const b = Buffer.alloc(512 * 1024, 0x42);
    await store.write("swap/file", a);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 6; i++) await store.write("swap/file", i % 2 === 0 ? b : a);
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const got = Buffer.from((await store.read("swap/file")) ?? []);
      assert.ok(got.equals(a) || got.equals(b), "a reader saw a mixed or partial file");
      reads += 1;
    }
    await writer;
    assert.ok(reads > 0);
  });

  t.run();
}
