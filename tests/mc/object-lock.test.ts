// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// mc mb --with-lock, retention and legalhold against Ceph RGW.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { putListed } from "./put-listed.js";

const fx = await startMcFixture();
const { mc } = fx;
const day = 86400e3;
const put = (target: string, body: string): Promise<string> => putListed(mc, target, body);
const errorOf = (stdout: string): { message: string; Code: string } => {
  const e = jsonLines(stdout)[0]?.["error"] as { message: string; cause: { error: { Code?: string } } };
  return { message: e.message, Code: e.cause.error.Code ?? "" };
};
const retentionOf = async (args: string[]): Promise<Record<string, unknown>> => {
  const r = await mc(["retention", "info", "--json", ...args]);
  assert.is(r.code, 0, r.stderr + r.stdout);
  return jsonLines(r.stdout)[0] ?? {};
};

// ---

const retention = suite("retention on a bucket made with mb --with-lock");

retention.before(async () => {
  const mb = await mc(["mb", "--with-lock", "rgw/locked"]);
  assert.is(mb.code, 0, mb.stderr);
  assert.is((await mc(["mb", "rgw/plain"])).code, 0);
});

retention("should make a lock bucket, which is versioned", async () => {
  assert.is((await mc(["version", "info", "rgw/locked"])).stdout, "rgw/locked versioning is enabled\n");
  const r = await mc(["retention", "info", "--default", "rgw/locked"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "`rgw/locked` has object lock enabled and no default retention.\n");
});

retention("should keep a governance-locked version from deletion until cleared with --bypass", async () => {
  const vid = await put("rgw/locked/gov.txt", "keep me");
  const set = await mc(["retention", "set", "governance", "1d", "rgw/locked/gov.txt"]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Object retention successfully set for `rgw/locked/gov.txt`.\n");
  const info = await retentionOf(["rgw/locked/gov.txt"]);
  assert.is(info["mode"], "GOVERNANCE");
  assert.ok(Math.abs(Date.parse(String(info["until"])) - (Date.now() + day)) < 120e3, String(info["until"]));
  const text = await mc(["retention", "info", "rgw/locked/gov.txt"]);
  assert.match(text.stdout, /^`rgw\/locked\/gov\.txt`: GOVERNANCE until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+\n$/);

  const rm = await mc(["rm", "--version-id", vid, "rgw/locked/gov.txt"]);
  assert.is(rm.code, 1);
  assert.match(rm.stderr, /^mc: <ERROR> Unable to remove `rgw\/locked\/gov\.txt` \(versionId=.+\): object is WORM protected by a retention period or legal hold\./, rm.stderr);
  assert.not.match(rm.stderr, "Check that the keys belong to a user", "no generic access advice after the lock is named");
  const rmJson = await mc(["rm", "--version-id", vid, "rgw/locked/gov.txt", "--json"]);
  assert.is(errorOf(rmJson.stdout).Code, "AccessDenied");

  const noBypass = await mc(["retention", "clear", "--version-id", vid, "rgw/locked/gov.txt", "--json"]);
  assert.is(noBypass.code, 1);
  assert.is(errorOf(noBypass.stdout).Code, "AccessDenied");
  const clear = await mc(["retention", "clear", "--bypass", "--version-id", vid, "rgw/locked/gov.txt"]);
  assert.is(clear.code, 0, clear.stderr);
  assert.is(clear.stdout, `Object retention successfully cleared for \`rgw/locked/gov.txt\` (version-id=${vid}).\n`);
  const gone = await mc(["rm", "--version-id", vid, "rgw/locked/gov.txt"]);
  assert.is(gone.code, 0, gone.stderr);
  assert.is((await mc(["cat", "rgw/locked/gov.txt"])).code, 1);
});

retention("should not let --bypass clear compliance retention (mode given in upper case)", async () => {
  const vid = await put("rgw/locked/comp.txt", "forever");
  const set = await mc(["retention", "set", "COMPLIANCE", "1d", "rgw/locked/comp.txt", "--json"]);
  assert.is(set.code, 0, set.stdout);
  assert.equal(jsonLines(set.stdout)[0], { op: "set", mode: "COMPLIANCE", validity: "1d", urlpath: "rgw/locked/comp.txt", versionID: "", status: "success" });
  const clear = await mc(["retention", "clear", "--bypass", "--version-id", vid, "rgw/locked/comp.txt"]);
  assert.is(clear.code, 1);
  assert.match(clear.stderr, /^mc: <ERROR> Unable to clear retention on `rgw\/locked\/comp\.txt`\./);
  assert.is((await mc(["rm", "--version-id", vid, "rgw/locked/comp.txt"])).code, 1);
  const bypass = await mc(["rm", "--bypass", "--version-id", vid, "rgw/locked/comp.txt"]);
  assert.is(bypass.code, 1);
  assert.match(bypass.stderr, "WORM protected");
  assert.is((await retentionOf(["rgw/locked/comp.txt"]))["mode"], "COMPLIANCE");
});

retention("should give new objects the bucket's default retention, until it is cleared", async () => {
  const set = await mc(["retention", "set", "--default", "governance", "2d", "rgw/locked"]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Default retention of `rgw/locked` set to GOVERNANCE mode for 2d.\n");
  const def = jsonLines((await mc(["retention", "info", "--default", "rgw/locked", "--json"])).stdout)[0];
  assert.equal(def, { op: "info", enabled: "Enabled", mode: "GOVERNANCE", validity: "2d", url: "rgw/locked", status: "success" });
  const vid = await put("rgw/locked/inherits.txt", "x");
  const info = await retentionOf(["rgw/locked/inherits.txt"]);
  assert.is(info["mode"], "GOVERNANCE");
  assert.ok(Math.abs(Date.parse(String(info["until"])) - (Date.now() + 2 * day)) < 120e3, String(info["until"]));
  assert.is((await mc(["rm", "--version-id", vid, "rgw/locked/inherits.txt"])).code, 1);
  const bypass = await mc(["rm", "--bypass", "--version-id", vid, "rgw/locked/inherits.txt"]);
  assert.is(bypass.code, 0, bypass.stderr);
  assert.is(bypass.stdout, `Removed \`rgw/locked/inherits.txt\` (versionId=${vid}).\n`);

  const clear = await mc(["retention", "clear", "--default", "rgw/locked"]);
  assert.is(clear.code, 0, clear.stderr);
  assert.is(clear.stdout, "Default retention of `rgw/locked` cleared successfully.\n");
  const after = jsonLines((await mc(["retention", "info", "--default", "rgw/locked", "--json"])).stdout)[0];
  assert.is(after?.["mode"], "");
  await put("rgw/locked/free.txt", "y");
  assert.is((await retentionOf(["rgw/locked/free.txt"]))["mode"], "");
  assert.is((await mc(["retention", "info", "rgw/locked/free.txt"])).stdout, "`rgw/locked/free.txt`: no retention\n");
});

retention("should set retention recursively under a prefix with -r", async () => {
  await put("rgw/locked/tree/a", "a");
  await put("rgw/locked/tree/b", "b");
  const r = await mc(["retention", "set", "-r", "governance", "1d", "rgw/locked/tree/"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trimEnd().split("\n").length, 2);
  const info = await mc(["retention", "info", "-r", "rgw/locked/tree/", "--json"]);
  assert.equal(jsonLines(info.stdout).map((o) => o["mode"]), ["GOVERNANCE", "GOVERNANCE"]);
});

retention("should reject bad validity, bad mode, missing target and bad flag mixes as usage errors", async () => {
  for (const validity of ["30x", "0d", "abc", "1.5y", "d"]) {
    const r = await mc(["retention", "set", "governance", validity, "rgw/locked/free.txt"]);
    assert.is(r.code, 1, validity);
    assert.match(r.stderr, `mc: <ERROR> Invalid command usage, invalid validity \`${validity}\``, r.stderr);
  }
  // A negative validity reads as an unknown flag: still a usage error.
  const negative = await mc(["retention", "set", "governance", "-1d", "rgw/locked/free.txt"]);
  assert.is(negative.code, 1);
  assert.match(negative.stderr, "mc: <ERROR> Invalid command usage,");
  const mode = await mc(["retention", "set", "forever", "1d", "rgw/locked/free.txt"]);
  assert.is(mode.code, 1);
  assert.match(mode.stderr, "Invalid command usage, invalid retention mode `forever`; use governance or compliance.");
  const missing = await mc(["retention", "set", "governance", "1d"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, "Invalid command usage, retention set needs MODE, VALIDITY and TARGET");
  const mix = await mc(["retention", "set", "--default", "-r", "governance", "1d", "rgw/locked"]);
  assert.is(mix.code, 1);
  assert.match(mix.stderr, "cannot be combined with -r");
  const json = await mc(["retention", "info", "--json"]);
  assert.is(json.code, 1);
  assert.is(jsonLines(json.stdout)[0]?.["status"], "error");
  assert.is((await retentionOf(["rgw/locked/free.txt"]))["mode"], "");
});

retention("should pass on the server's refusal for a bucket without object lock", async () => {
  await put("rgw/plain/x", "x");
  const r = await mc(["retention", "set", "governance", "1d", "rgw/plain/x"]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> Unable to set retention on `rgw\/plain\/x`\. .*object lock.*\n$/);
  assert.is(errorOf((await mc(["retention", "set", "governance", "1d", "rgw/plain/x", "--json"])).stdout).Code, "InvalidRequest");
  const def = await mc(["retention", "set", "--default", "governance", "1d", "rgw/plain", "--json"]);
  assert.is(def.code, 1);
  assert.is(errorOf(def.stdout).Code, "InvalidBucketState");
  const info = await mc(["retention", "info", "--default", "rgw/plain"]);
  assert.is(info.code, 1);
  assert.match(info.stderr, "object lock is not enabled on this bucket");
  assert.ok(!/\n\s+at /.test(r.stderr + info.stderr), "no stack trace");
});

retention.run();

// ---

const hold = suite("legalhold set, clear, info");

hold("should block deletion while a legal hold is set", async () => {
  const vid = await put("rgw/locked/held.txt", "evidence");
  const none = await mc(["legalhold", "info", "rgw/locked/held.txt", "--json"]);
  assert.is(none.code, 0, none.stdout);
  assert.is(jsonLines(none.stdout)[0]?.["legalhold"], "");
  const set = await mc(["legalhold", "set", "rgw/locked/held.txt"]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Object legal hold successfully set for `rgw/locked/held.txt`.\n");
  assert.is((await mc(["legalhold", "info", "rgw/locked/held.txt"])).stdout, "[    ON    ]  held.txt\n");
  const rm = await mc(["rm", "--version-id", vid, "rgw/locked/held.txt"]);
  assert.is(rm.code, 1);
  assert.match(rm.stderr, "WORM protected", rm.stderr);
  const clear = await mc(["legalhold", "clear", "rgw/locked/held.txt", "--version-id", vid, "--json"]);
  assert.is(clear.code, 0, clear.stdout);
  assert.equal(jsonLines(clear.stdout)[0], { op: "clear", urlpath: "rgw/locked/held.txt", versionID: vid, status: "success" });
  const off = jsonLines((await mc(["legalhold", "info", "rgw/locked/held.txt", "--json"])).stdout)[0];
  assert.equal(off, { legalhold: "OFF", urlpath: "rgw/locked/held.txt", key: "held.txt", versionID: "", status: "success" });
  const gone = await mc(["rm", "--version-id", vid, "rgw/locked/held.txt"]);
  assert.is(gone.code, 0, gone.stderr);
});

hold("should act on the version that existed then with --rewind, not on today's", async () => {
  const old = await put("rgw/locked/past.txt", "first");
  await new Promise((done) => setTimeout(done, 1100));
  const then = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  await new Promise((done) => setTimeout(done, 1100));
  const current = await put("rgw/locked/past.txt", "second");
  const set = await mc(["legalhold", "set", "--rewind", then, "rgw/locked/past.txt", "--json"]);
  assert.is(set.code, 0, set.stdout + set.stderr);
  assert.equal(jsonLines(set.stdout)[0], { op: "set", urlpath: "rgw/locked/past.txt", versionID: old, status: "success" });
  const holdOf = async (vid: string): Promise<unknown> => jsonLines((await mc(["legalhold", "info", "--vid", vid, "rgw/locked/past.txt", "--json"])).stdout)[0]?.["legalhold"];
  assert.is(await holdOf(old), "ON");
  assert.is(await holdOf(current), "", "today's version never had a hold");
  const info = jsonLines((await mc(["retention", "info", "-r", "--rewind", then, "rgw/locked/", "--json"])).stdout);
  assert.ok(info.some((o) => o["urlpath"] === "rgw/locked/past.txt" && o["versionID"] === old), JSON.stringify(info));
  assert.ok(!info.some((o) => o["versionID"] === current));
  const clear = await mc(["legalhold", "clear", "--rewind", then, "rgw/locked/past.txt"]);
  assert.is(clear.code, 0, clear.stderr);
  assert.is(await holdOf(old), "OFF");
  const before = await mc(["legalhold", "set", "--rewind", "2001.01.01", "rgw/locked/past.txt"]);
  assert.is(before.code, 1);
  assert.match(before.stderr, "Unable to find any object/version to set legal hold under `rgw/locked/past.txt`");
  const mixed = await mc(["legalhold", "set", "--rewind", then, "--vid", old, "rgw/locked/past.txt"]);
  assert.is(mixed.code, 1);
  assert.match(mixed.stderr, "--version-id cannot be combined with -r, --versions or --rewind");
  const def = await mc(["retention", "set", "--default", "--rewind", "1d", "governance", "1d", "rgw/locked"]);
  assert.is(def.code, 1);
  assert.match(def.stderr, "cannot be combined with -r, --versions, --version-id or --rewind");
});

hold("should refuse a bucket without object lock, a bucket target and a missing target", async () => {
  const r = await mc(["legalhold", "set", "rgw/plain/x", "--json"]);
  assert.is(r.code, 1);
  assert.is(errorOf(r.stdout).Code, "InvalidRequest");
  const bucket = await mc(["legalhold", "set", "rgw/locked"]);
  assert.is(bucket.code, 1);
  assert.match(bucket.stderr, "Invalid command usage, legalhold set needs an object", bucket.stderr);
  const missing = await mc(["legalhold", "info"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, "Invalid command usage, legalhold info needs a TARGET");
});

hold.after(async () => {
  await fx.stop();
});

hold.run();
