import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { defaultConfig, readConfig, serializeConfig, writeConfig } from "./config-file.js";

const file = suite("config.json version 10");

file("should write tab-indented, sorted aliases in Go field order", () => {
  const text = serializeConfig({ version: "10", aliases: { z: { path: "auto", api: "s3v4", secretKey: "s", accessKey: "a", url: "http://z" }, a: { url: "http://a", accessKey: "", secretKey: "", api: "S3v4", path: "auto", sessionToken: "" } } });
  assert.is(text, '{\n\t"version": "10",\n\t"aliases": {\n\t\t"a": {\n\t\t\t"url": "http://a",\n\t\t\t"accessKey": "",\n\t\t\t"secretKey": "",\n\t\t\t"api": "S3v4",\n\t\t\t"path": "auto"\n\t\t},\n\t\t"z": {\n\t\t\t"url": "http://z",\n\t\t\t"accessKey": "a",\n\t\t\t"secretKey": "s",\n\t\t\t"api": "s3v4",\n\t\t\t"path": "auto"\n\t\t}\n\t}\n}\n');
});

file("should keep unknown fields when rewriting :: round trip", async () => {
  const dir = await mkdtemp(join(tmpdir(), "mc-cfg-"));
  try {
    const original = { version: "10", aliases: { ...defaultConfig().aliases, x: { url: "http://x", accessKey: "a", secretKey: "b", api: "S3v4", path: "auto", license: "L", extra: { n: 1 } } }, custom: true };
    await writeFile(join(dir, "config.json"), JSON.stringify(original));
    const read = await readConfig(dir);
    assert.ok(read);
    await writeConfig(dir, read);
    const back = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as unknown;
    assert.equal(back, original);
    assert.is((await stat(join(dir, "config.json"))).mode & 0o777, 0o600);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

file("should refuse a file of the wrong shape, naming the field :: aliases as a list, a number for a URL", async () => {
  const dir = await mkdtemp(join(tmpdir(), "mc-cfg-"));
  try {
    const cases: Array<[unknown, string]> = [
      [{ version: "10", aliases: [1, 2] }, "`aliases` must be an object of alias names"],
      [{ version: "10", aliases: { x: "http://x" } }, "alias `x` must be an object"],
      [{ version: "10", aliases: { x: { url: 42 } } }, "alias `x`: `url` must be a string"],
      [{ version: "10", aliases: { x: { url: "http://x", secretKey: null } } }, "alias `x`: `secretKey` must be a string"],
    ];
    for (const [content, cause] of cases) {
      await writeFile(join(dir, "config.json"), JSON.stringify(content));
      let err: unknown;
      try {
        await readConfig(dir);
      } catch (e) {
        err = e;
      }
      assert.instance(err, Error, cause);
      assert.is(((err as Error).cause as Error | undefined)?.message, cause);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

file.run();
