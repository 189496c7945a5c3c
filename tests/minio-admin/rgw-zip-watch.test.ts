// The MinIO-only flags of issue 24 against Ceph RGW, which has neither the
// zip extension nor ListenBucketNotification: `ls|cat|head|cp --zip` on a
// real archive, `find --watch` and `mirror --active-active` each fail in one
// line naming what is missing, exit 1, and write nothing (aws s3api as the
// witness that the mirror copied nothing).
import { execFile } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { zipArchive } from "../../cli/src/util/zip-writer.js";
import { jsonLines, startMcFixture } from "../mc/mc-runner.js";

const fx = await startMcFixture();
const T = suite("MinIO-only flags against Ceph RGW");
T.after(() => fx.stop());

const zipLine = /^mc: <ERROR> Reading inside ZIP archives \(MinIO's x-minio-extract extension\) is not supported by this server\. Server error code: none; it lists nothing inside the archive `zips\/2024\.zip`\.\n$/;
const listenLine = /^mc: <ERROR> Listening for bucket notifications \(ListenBucketNotification\) is not supported by this server\. Server error code: [^\n]+\.\n$/;

T("--zip on ls, cat, head and cp: one line naming the missing extension, exit 1, nothing downloaded", async () => {
  const input = join(fx.work, "in");
  await mkdir(input);
  await writeFile(join(input, "2024.zip"), zipArchive([{ name: "notes.txt", data: Buffer.from("hello\n") }, { name: "jan/a.jpg", data: Buffer.from("jpg") }]));
  for (const args of [["mb", "rgw/zips"], ["mb", "rgw/aa-src"], ["mb", "rgw/aa-dst"], ["cp", join(input, "2024.zip"), "rgw/zips/"], ["cp", join(input, "2024.zip"), "rgw/aa-src/"]]) {
    const r = await fx.mc(args);
    assert.is(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  }
  const out = join(fx.work, "out");
  await mkdir(out);
  const runs = await Promise.all([["ls", "--zip", "rgw/zips/2024.zip"], ["ls", "-r", "--zip", "rgw/zips/2024.zip/"], ["cat", "--zip", "rgw/zips/2024.zip/notes.txt"], ["head", "--zip", "rgw/zips/2024.zip/notes.txt"], ["cp", "--zip", "rgw/zips/2024.zip/notes.txt", `${out}/`]].map(async (args) => ({ args, r: await fx.mc(args) })));
  for (const { args, r } of runs) {
    assert.is(r.code, 1, args.join(" "));
    assert.is(r.stdout, "", args.join(" "));
    assert.match(r.stderr, zipLine, args.join(" "));
  }
  const j = await fx.mc(["cat", "--zip", "rgw/zips/2024.zip/notes.txt", "--json"]);
  assert.equal((jsonLines(j.stdout)[0] as { error: { cause: { error: { Code: string } } } }).error.cause.error.Code, "NotImplemented");
  assert.equal(await readdir(out), []);
  // A file that is not inside an archive is an ordinary "not found", not the missing extension.
  const plain = await fx.mc(["cat", "--zip", "rgw/zips/other.zip/x.txt"]);
  assert.is(plain.code, 1);
  assert.not.match(plain.stderr, /ZIP archives/);
});

T("find --watch lists, then fails in one line; mirror --active-active fails in one line before copying anything", async () => {
  const [find, mirror] = await Promise.all([fx.mc(["find", "rgw/zips", "--watch"]), fx.mc(["mirror", "--active-active", "rgw/aa-src", "rgw/aa-dst"])]);
  assert.is(find.code, 1);
  assert.is(find.stdout, "rgw/zips/2024.zip\n");
  assert.match(find.stderr, listenLine);
  assert.is(mirror.code, 1);
  assert.is(mirror.stdout, "");
  assert.match(mirror.stderr, listenLine);
  const { stdout } = await promisify(execFile)("aws", ["s3api", "list-objects-v2", "--bucket", "aa-dst", "--endpoint-url", fx.rgw.endpoint, "--output", "json"], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: fx.rgw.accessKey, AWS_SECRET_ACCESS_KEY: fx.rgw.secretKey, AWS_DEFAULT_REGION: fx.rgw.region, AWS_EC2_METADATA_DISABLED: "true" },
  });
  assert.is((JSON.parse(stdout || "{}") as { KeyCount?: number }).KeyCount ?? 0, 0);
});

T.run();
