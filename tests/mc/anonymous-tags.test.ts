// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// mc tag and mc anonymous against Ceph RGW; anonymous access checked with an unauthenticated curl.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work } = fx;
const put = async (target: string, body: string): Promise<void> => {
  const r = await mc(["pipe", target], { input: body });
  assert.is(r.code, 0, r.stderr);
};
/** HTTP status of an unauthenticated request, as curl reports it. */
const curl = (method: string, path: string, data?: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const args = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", method, ...(data === undefined ? [] : ["--data-binary", data]), `${fx.rgw.endpoint}${path}`];
    execFile("curl", args, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
const errorCode = (stdout: string): string => ((jsonLines(stdout)[0]?.["error"] as { cause: { error: { Code?: string } } }).cause.error.Code ?? "");

// ---

const tags = suite("tag set, list, remove");

tags.before(async () => {
  assert.is((await mc(["mb", "rgw/tagged"])).code, 0);
  await put("rgw/tagged/doc.txt", "text");
});

tags("should round-trip bucket tags :: text and json", async () => {
  const set = await mc(["tag", "set", "rgw/tagged", "env=test&team=storage ops"]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Tags set for rgw/tagged.\n");
  const list = await mc(["tag", "list", "rgw/tagged"]);
  assert.is(list.stdout, "Name : rgw/tagged\nenv  : test\nteam : storage ops\n");
  const json = await mc(["tag", "list", "rgw/tagged", "--json"]);
  assert.is(json.stdout, '{"tagset":{"env":"test","team":"storage ops"},"status":"success","url":"rgw/tagged","versionID":""}\n');
  const rm = await mc(["tag", "remove", "rgw/tagged"]);
  assert.is(rm.code, 0, rm.stderr);
  assert.is(rm.stdout, "Tags removed for rgw/tagged.\n");
  assert.is((await mc(["tag", "list", "rgw/tagged"])).stdout, "Name : rgw/tagged\nNo tags found\n");
  assert.is((await mc(["tag", "list", "rgw/tagged", "--json"])).stdout, '{"status":"success","url":"rgw/tagged","versionID":""}\n');
});

tags("should round-trip object tags, %-escapes and numbers included", async () => {
  const set = await mc(["tag", "set", "rgw/tagged/doc.txt", "project%20name=x+y&year=2024&empty=", "--json"]);
  assert.is(set.code, 0, set.stdout);
  assert.is(set.stdout, '{"status":"success","name":"rgw/tagged/doc.txt","versionID":""}\n');
  const [list] = jsonLines((await mc(["tag", "list", "--json", "rgw/tagged/doc.txt"])).stdout);
  assert.equal(list?.["tagset"], { "project name": "x y", year: "2024", empty: "" });
  // Setting replaces the whole tag set.
  assert.is((await mc(["tag", "set", "rgw/tagged/doc.txt", "only=one"])).code, 0);
  assert.is((await mc(["tag", "list", "rgw/tagged/doc.txt"])).stdout, "Name : rgw/tagged/doc.txt\nonly : one\n");
  assert.is((await mc(["tag", "remove", "rgw/tagged/doc.txt"])).code, 0);
  assert.is((await mc(["tag", "list", "rgw/tagged/doc.txt"])).stdout, "Name : rgw/tagged/doc.txt\nNo tags found\n");
});

tags("should reject malformed tags and missing arguments as usage errors", async () => {
  for (const bad of ["novalue", "", "=v", "a=1&a=2", "a=%zz"]) {
    const r = await mc(["tag", "set", "rgw/tagged/doc.txt", bad]);
    assert.is(r.code, 1, bad);
    assert.match(r.stderr, /^mc: <ERROR> Invalid command usage, /, bad);
  }
  const missing = await mc(["tag", "set", "rgw/tagged/doc.txt"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, "Invalid command usage, tag set needs TARGET and TAGS");
  const bare = await mc(["tag", "list", "rgw"]);
  assert.is(bare.code, 1);
  assert.match(bare.stderr, "needs a bucket name");
  assert.is((await mc(["tag", "list", "rgw/tagged/doc.txt"])).stdout, "Name : rgw/tagged/doc.txt\nNo tags found\n");
});

tags("should report a missing object with the server's code", async () => {
  const r = await mc(["tag", "set", "rgw/tagged/nothing-here", "a=b", "--json"]);
  assert.is(r.code, 1);
  assert.is(errorCode(r.stdout), "NoSuchKey");
  const t = await mc(["tag", "list", "rgw/tagged/nothing-here"]);
  assert.is(t.code, 1);
  assert.match(t.stderr, /^mc: <ERROR> Unable to fetch tags for `rgw\/tagged\/nothing-here`\. Object does not exist\.\n$/);
});

tags.run();

// ---

const anon = suite("anonymous set, get, list, links, set-json");

anon.before(async () => {
  assert.is((await mc(["mb", "rgw/pub"])).code, 0);
  await put("rgw/pub/file.txt", "public data");
  await put("rgw/pub/dir/x.txt", "x");
});

anon("should start private: an unauthenticated GET is refused", async () => {
  const r = await mc(["anonymous", "get", "rgw/pub"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Access permission for `rgw/pub` is `private`\n");
  assert.is(await curl("GET", "/pub/file.txt"), "403");
});

anon("should allow unauthenticated downloads after set download, and refuse them after set none", async () => {
  const set = await mc(["anonymous", "set", "download", "rgw/pub"]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Access permission for `rgw/pub` is set to `download`\n");
  assert.is(await curl("GET", "/pub/file.txt"), "200");
  assert.is(await curl("GET", "/pub/dir/x.txt"), "200");
  assert.is(await curl("PUT", "/pub/new.txt", "x"), "403");
  const get = await mc(["anonymous", "get", "rgw/pub", "--json"]);
  assert.is(get.stdout, '{"operation":"get","status":"success","bucket":"rgw/pub","permission":"download"}\n');
  assert.is((await mc(["anonymous", "list", "rgw/pub"])).stdout, "pub/* => readonly\n");
  const links = await mc(["anonymous", "links", "-r", "rgw/pub"]);
  assert.is(links.stdout, `${fx.rgw.endpoint}/pub/dir/x.txt\n${fx.rgw.endpoint}/pub/file.txt\n`);

  const none = await mc(["anonymous", "set", "none", "rgw/pub", "--json"]);
  assert.is(none.code, 0, none.stdout);
  assert.is(none.stdout, '{"operation":"set","status":"success","bucket":"rgw/pub","permission":"private"}\n');
  assert.is(await curl("GET", "/pub/file.txt"), "403");
  assert.is((await mc(["anonymous", "list", "rgw/pub"])).stdout, "");
  assert.is((await mc(["anonymous", "links", "-r", "rgw/pub"])).stdout, "");
});

anon("should scope a permission to a prefix", async () => {
  const set = await mc(["anonymous", "set", "public", "rgw/pub/dir/"]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Access permission for `rgw/pub/dir/` is set to `public`\n");
  assert.is(await curl("GET", "/pub/dir/x.txt"), "200");
  assert.is(await curl("GET", "/pub/file.txt"), "403");
  assert.is((await mc(["anonymous", "get", "rgw/pub"])).stdout, "Access permission for `rgw/pub` is `private`\n");
  assert.is((await mc(["anonymous", "list", "rgw/pub", "--json"])).stdout, '{"resource":"pub/dir/*","allow":"readwrite"}\n');
  assert.is((await mc(["anonymous", "links", "-r", "rgw/pub"])).stdout, `${fx.rgw.endpoint}/pub/dir/x.txt\n`);
  assert.is((await mc(["anonymous", "set", "private", "rgw/pub/dir/"])).code, 0);
  assert.is(await curl("GET", "/pub/dir/x.txt"), "403");
});

anon("should allow unauthenticated uploads under a prefix after set upload", async () => {
  const set = await mc(["anonymous", "set", "upload", "rgw/pub/in/"]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Access permission for `rgw/pub/in/` is set to `upload`\n");
  assert.is((await mc(["anonymous", "list", "rgw/pub"])).stdout, "pub/in/* => writeonly\n");
  assert.is(await curl("PUT", "/pub/in/drop.txt", "dropped"), "200");
  assert.is(await curl("PUT", "/pub/outside.txt", "x"), "403");
  assert.is(await curl("GET", "/pub/in/drop.txt"), "403");
  assert.is((await mc(["cat", "rgw/pub/in/drop.txt"])).stdout, "dropped");
  assert.is((await mc(["anonymous", "links", "-r", "rgw/pub"])).stdout, "");
  assert.is((await mc(["anonymous", "set", "none", "rgw/pub/in/"])).code, 0);
  assert.is(await curl("PUT", "/pub/in/drop2.txt", "x"), "403");
});

anon("should set a policy from a JSON file with set-json", async () => {
  const file = join(work, "policy.json");
  const policy = {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { AWS: ["*"] }, Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::pub/file.txt"] }],
  };
  await writeFile(file, JSON.stringify(policy));
  const r = await mc(["anonymous", "set-json", file, "rgw/pub"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, `Access permission for \`rgw/pub\` is set from \`${file}\`\n`);
  assert.is(await curl("GET", "/pub/file.txt"), "200");
  assert.is(await curl("GET", "/pub/dir/x.txt"), "403");
  assert.is((await mc(["anonymous", "set", "none", "rgw/pub"])).code, 0);
  // `set none` keeps statements it did not write.
  assert.is(await curl("GET", "/pub/file.txt"), "200");
});

anon("should reject a bad permission, bad JSON, a missing file and a missing bucket", async () => {
  const perm = await mc(["anonymous", "set", "everyone", "rgw/pub"]);
  assert.is(perm.code, 1);
  assert.match(perm.stderr, "Invalid command usage, Unrecognized permission `everyone`. Allowed values are [none, private, public, download, upload].");
  const bad = join(work, "bad.json");
  await writeFile(bad, "{ not json");
  const json = await mc(["anonymous", "set-json", bad, "rgw/pub"]);
  assert.is(json.code, 1);
  assert.match(json.stderr, `mc: <ERROR> Policy file \`${bad}\` is not valid JSON.`);
  const missingFile = await mc(["anonymous", "set-json", join(work, "nope.json"), "rgw/pub"]);
  assert.is(missingFile.code, 1);
  assert.match(missingFile.stderr, "Unable to read policy file");
  const bucket = await mc(["anonymous", "set", "download", "rgw/no-such-bucket", "--json"]);
  assert.is(bucket.code, 1);
  assert.is(errorCode(bucket.stdout), "NoSuchBucket");
  const target = await mc(["anonymous", "set", "download"]);
  assert.is(target.code, 1);
  assert.match(target.stderr, "Invalid command usage, anonymous set needs PERMISSION and TARGET");
  // The server refuses a policy it cannot parse: its code is passed on.
  await writeFile(bad, JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Maybe" }] }));
  const refused = await mc(["anonymous", "set-json", bad, "rgw/pub", "--json"]);
  assert.is(refused.code, 1);
  assert.ok(errorCode(refused.stdout) !== "", refused.stdout);
  assert.is(await curl("GET", "/pub/file.txt"), "200");
});

anon("should show every bucket property in stat of a bucket :: json and text", async () => {
  assert.is((await mc(["mb", "--with-lock", "rgw/props"])).code, 0);
  assert.is((await mc(["tag", "set", "rgw/props", "team=storage"])).code, 0);
  assert.is((await mc(["anonymous", "set", "download", "rgw/props"])).code, 0);
  assert.is((await mc(["retention", "set", "--default", "governance", "3d", "rgw/props"])).code, 0);
  assert.is((await mc(["ilm", "rule", "add", "--expire-days", "30", "rgw/props"])).code, 0);
  const json = jsonLines((await mc(["stat", "--json", "rgw/props"])).stdout)[0] ?? {};
  assert.equal(Object.keys(json), ["status", "name", "lastModified", "size", "Versioning", "Encryption", "ObjectLock", "Replication", "Policy", "location", "tagging", "ilm"]);
  assert.equal(json["Versioning"], { status: "Enabled", MFADelete: "Disabled" });
  assert.equal(json["ObjectLock"], { enabled: "Enabled", mode: "GOVERNANCE", validity: "3d" });
  // minio-go's replication.Config, empty: RGW has no replication.
  assert.equal(json["Replication"], { enabled: false, config: { Rules: null, Role: "" } });
  assert.is((json["Policy"] as { type: string }).type, "download");
  assert.equal(json["tagging"], { team: "storage" });
  assert.is((json["ilm"] as { config: { Rules: unknown[] } }).config.Rules.length, 1);
  const text = await mc(["stat", "rgw/props"]);
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, "\nProperties:\n  Versioning: Enabled\n  Location: us-east-1\n  Anonymous: Enabled (download)\n  ILM: Enabled\n  Encryption: Disabled\n  Object Lock: Enabled (GOVERNANCE 3d)\n  Tagging: team=storage\n  Notification: Disabled\n");
  const plain = jsonLines((await mc(["stat", "--json", "rgw/tagged"])).stdout)[0] ?? {};
  assert.equal(plain["Policy"], { type: "none" });
  assert.is(plain["tagging"], undefined);
  const missing = await mc(["stat", "rgw/no-such-bucket"]);
  assert.is(missing.code, 1);
});

anon.after(async () => {
  await fx.stop();
});

anon.run();
