// mc ilm restore (issue 22): the RestoreObject request at a recording endpoint
// (its body read as XML by the test, its version id, the wait for the copy)
// and Ceph RGW's own answer.
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { XMLParser } from "fast-xml-parser";
import { jsonLines, runMc, startMcFixture, type RunOptions } from "./mc-runner.js";
import { startRecordingS3 } from "./recording-s3.js";

const fx = await startMcFixture();
const { mc } = fx;
const rec = await startRecordingS3();
const config = await mkdtemp(join(fx.work, "config-"));
const mcRec = (args: readonly string[], options: RunOptions = {}): ReturnType<typeof runMc> => runMc(["-C", config, ...args], { ...options, env: { MC_HOST_rec: rec.host } });

const requested = new Set<string>();
rec.answerHeaders = (path) => (requested.has(path) ? { "x-amz-restore": 'ongoing-request="false", expiry-date="Fri, 04 Dec 2026 00:00:00 GMT"' } : {});
rec.override = (r) => {
  if (r.method !== "POST" || !r.query.has("restore")) return undefined;
  requested.add(decodeURIComponent(r.path.slice(1)));
  return { status: 202 };
};
const restores = (from: number): typeof rec.requests => rec.requests.slice(from).filter((r) => r.method === "POST" && r.query.has("restore"));
const parse = (body: Buffer): unknown => new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(body.toString());
const put = (key: string): void => void rec.objects.set(`bucket/${key}`, { body: Buffer.from("archived"), etag: "0a8d2f2c4b5bc4d4b4dca8e3cbb6f7c1", headers: {}, modified: new Date() });

// ---

const restore = suite("ilm restore");

restore("should send RestoreRequest with the days, then wait for the copy", async () => {
  put("cold file.bin");
  const from = rec.requests.length;
  const r = await mcRec(["ilm", "restore", "--days", "3", "rec/bucket/cold file.bin"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Sent restore requests to 1 object(s)\n1/1 object(s) successfully restored\n");
  const [req] = restores(from);
  assert.is(req?.path, "/bucket/cold%20file.bin");
  assert.equal(parse(req?.body ?? Buffer.alloc(0)), { RestoreRequest: { Days: "3", "@_xmlns": "http://s3.amazonaws.com/doc/2006-03-01/" } });
  // Then it asked for the object's restore state.
  assert.ok(rec.requests.slice(from).some((q) => q.method === "HEAD" && q.path === "/bucket/cold%20file.bin"));
});

restore("should name the version, and restore every object under a prefix with -r :: --json", async () => {
  let from = rec.requests.length;
  const one = await mcRec(["ilm", "restore", "--vid", "-v1+/=", "rec/bucket/cold file.bin"]);
  assert.is(one.code, 0, one.stderr);
  assert.is(restores(from)[0]?.query.get("versionId"), "-v1+/=");
  assert.equal(parse(restores(from)[0]?.body ?? Buffer.alloc(0)), { RestoreRequest: { Days: "1", "@_xmlns": "http://s3.amazonaws.com/doc/2006-03-01/" } });
  put("dir/a");
  put("dir/b c");
  from = rec.requests.length;
  const many = await mcRec(["ilm", "restore", "-r", "--json", "rec/bucket/dir/"]);
  assert.is(many.code, 0, many.stdout);
  assert.equal(jsonLines(many.stdout), [{ status: "success", restored: 2 }]);
  assert.equal(restores(from).map((q) => decodeURIComponent(q.path)), ["/bucket/dir/a", "/bucket/dir/b c"]);
});

restore("should refuse bad flags before sending anything", async () => {
  const from = rec.requests.length;
  const cases: Array<[string[], RegExp]> = [
    [["--days", "0"], /--days should be a whole number equal or greater than 1, not `0`/],
    [["--days", "two"], /--days should be a whole number equal or greater than 1, not `two`/],
    [["--days", "1.5"], /not `1\.5`/],
    [["--vid", "x", "-r"], /You cannot combine --version-id with --recursive or --versions flags\./],
    [["--vid", "x", "--versions"], /You cannot combine --version-id/],
  ];
  for (const [flags, message] of cases) {
    const r = await mcRec(["ilm", "restore", ...flags, "rec/bucket/cold file.bin"]);
    assert.is(r.code, 1, flags.join(" "));
    assert.match(r.stderr.split("\n")[0] ?? "", message);
  }
  const local = await mcRec(["ilm", "restore", "/tmp"]);
  assert.is(local.code, 1);
  assert.is(rec.requests.length, from);
});

restore("should report Ceph RGW's answer for an object that is not archived", async () => {
  assert.is((await mc(["mb", "--with-versioning", "rgw/warm"])).code, 0);
  assert.is((await mc(["pipe", "rgw/warm/doc.txt"], { input: "v1" })).code, 0);
  assert.is((await mc(["pipe", "rgw/warm/doc.txt"], { input: "v2" })).code, 0);
  const one = await mc(["ilm", "restore", "rgw/warm/doc.txt"]);
  assert.is(one.code, 1, one.stdout);
  assert.match(one.stderr, /^mc: <ERROR> Unable to send restore request for `rgw\/warm\/doc\.txt`\. /);
  assert.is(one.stderr.trimEnd().split("\n").length, 1, one.stderr);
  const all = await mc(["ilm", "restore", "-r", "--versions", "rgw/warm"]);
  assert.is(all.code, 1);
  assert.is(all.stderr.trimEnd().split("\n").length, 2, all.stderr);
  assert.match(all.stdout, /^Sent restore requests to 0 object\(s\)\n0\/0 object\(s\) successfully restored\n$/);
});

restore.after(async () => {
  await rec.close();
  await fx.stop();
});

restore.run();
