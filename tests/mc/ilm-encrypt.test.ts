// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// mc ilm rule, encrypt and the --enc-c / --enc-kms flags against Ceph RGW
// (contracts/mc.md §4-7; the peer's feature table in reference/s3-peer-ceph.md).
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { Client } from "minio";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const endpoint = new URL(rgw.endpoint);
const s3 = new Client({ endPoint: endpoint.hostname, port: Number(endpoint.port), useSSL: false, accessKey: rgw.accessKey, secretKey: rgw.secretKey, region: "us-east-1", pathStyle: true });
const errorCode = (stdout: string): string => {
  const err = jsonLines(stdout)[0]?.["error"] as { cause?: { error?: { Code?: string } } } | undefined;
  return err?.cause?.error?.Code ?? "";
};

// ---

const ilm = suite("ilm rule against RGW");

ilm.before(async () => {
  assert.is((await mc(["mb", "rgw/life"])).code, 0);
  assert.is((await mc(["mb", "rgw/life2"])).code, 0);
});

ilm("should add rules and list them :: text and json", async () => {
  const add = await mc(["ilm", "rule", "add", "--id", "logs", "--prefix", "logs/", "--expire-days", "30", "rgw/life"]);
  assert.is(add.code, 0, add.stderr);
  assert.is(add.stdout, "Lifecycle configuration rule added with ID `logs` to rgw/life.\n");
  const nc = await mc(["ilm", "rule", "add", "--noncurrent-expire-days", "7", "--tags", "a=1&b=2", "--prefix", "docs/", "rgw/life", "--json"]);
  assert.is(nc.code, 0, nc.stdout);
  const generated = String(jsonLines(nc.stdout)[0]?.["id"]);
  assert.match(generated, /^[0-9a-v]{20}$/);
  const ls = await mc(["ilm", "rule", "ls", "rgw/life"]);
  assert.is(ls.code, 0, ls.stderr);
  assert.match(ls.stdout, /^ID\s+STATUS\s+PREFIX/);
  assert.match(ls.stdout, /\nlogs\s+Enabled\s+logs\/\s+-\s+30d\s+-/);
  assert.match(ls.stdout, new RegExp(`\\n${generated}\\s+Enabled\\s+docs/\\s+a=1&b=2\\s+-\\s+7d`));
  const json = jsonLines((await mc(["ilm", "rule", "list", "rgw/life", "--json"])).stdout)[0];
  const rules = (json?.["config"] as { Rules: Record<string, unknown>[] }).Rules;
  assert.equal(rules.find((r) => r["ID"] === "logs"), { ID: "logs", Filter: { Prefix: "logs/" }, Status: "Enabled", Expiration: { Days: 30 } });
  // RGW moves the prefix out of <And> when it stores the rule; the tags stay a list.
  const filter = rules.find((r) => r["ID"] === generated)?.["Filter"] as { And: { Tags: unknown; Prefix?: string }; Prefix?: string };
  assert.equal(filter.And.Tags, [{ Key: "a", Value: "1" }, { Key: "b", Value: "2" }]);
  assert.is(filter.And.Prefix ?? filter.Prefix, "docs/");
});

ilm("should edit a rule and remove it", async () => {
  const edit = await mc(["ilm", "rule", "edit", "--id", "logs", "--expire-date", "2031-01-01", "--disable", "rgw/life"]);
  assert.is(edit.code, 0, edit.stderr);
  const json = jsonLines((await mc(["ilm", "rule", "ls", "rgw/life", "--json"])).stdout)[0];
  const logs = (json?.["config"] as { Rules: Record<string, unknown>[] }).Rules.find((r) => r["ID"] === "logs");
  assert.equal(logs?.["Expiration"], { Date: "2031-01-01T00:00:00Z" });
  assert.is(logs?.["Status"], "Disabled");
  const missing = await mc(["ilm", "rule", "edit", "--id", "nope", "--expire-days", "3", "rgw/life"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /^mc: <ERROR> No lifecycle rule with ID `nope` on `rgw\/life`\.\n$/);
  const rm = await mc(["ilm", "rule", "rm", "--id", "logs", "rgw/life"]);
  assert.is(rm.code, 0, rm.stderr);
  assert.is(rm.stdout, "Rule ID `logs` from target rgw/life removed.\n");
  const left = jsonLines((await mc(["ilm", "rule", "ls", "rgw/life", "--json"])).stdout)[0];
  assert.is((left?.["config"] as { Rules: unknown[] }).Rules.length, 1);
});

ilm("should round-trip rules through export and import losslessly", async () => {
  const add = await mc(["ilm", "rule", "add", "--id", "007", "--expire-days", "1", "--noncurrent-expire-days", "2", "rgw/life"]);
  assert.is(add.code, 0, add.stderr);
  const exported = await mc(["ilm", "rule", "export", "rgw/life"]);
  assert.is(exported.code, 0, exported.stderr);
  const doc = JSON.parse(exported.stdout) as { Rules: Record<string, unknown>[] };
  assert.is(doc.Rules.length, 2);
  assert.ok(doc.Rules.some((r) => r["ID"] === "007"), "numeric-looking IDs stay strings");
  const imported = await mc(["ilm", "rule", "import", "rgw/life2"], { input: exported.stdout });
  assert.is(imported.code, 0, imported.stderr);
  assert.is(imported.stdout, "Lifecycle configuration imported successfully to `rgw/life2`.\n");
  const again = await mc(["ilm", "rule", "export", "rgw/life2"]);
  assert.is(again.stdout, exported.stdout);
  const all = await mc(["ilm", "rule", "rm", "--all", "--force", "rgw/life2"]);
  assert.is(all.code, 0, all.stderr);
  const none = await mc(["ilm", "rule", "export", "rgw/life2", "--json"]);
  assert.is(none.code, 1);
  assert.is(errorCode(none.stdout), "NoSuchLifecycleConfiguration");
});

ilm("should store transitions and noncurrent transitions :: storage classes", async () => {
  const add = await mc(["ilm", "rule", "add", "--id", "cold", "--transition-days", "30", "--storage-class", "COLD", "--noncurrent-transition-days", "5", "--noncurrent-transition-storage-class", "COLD", "rgw/life2"]);
  assert.is(add.code, 0, add.stderr);
  const ls = await mc(["ilm", "rule", "ls", "rgw/life2"]);
  assert.match(ls.stdout, /\ncold\s+Enabled\s+-\s+-\s+-\s+-\s+30d → COLD\s+5d → COLD\n$/);
  const doc = JSON.parse((await mc(["ilm", "rule", "export", "rgw/life2"])).stdout) as { Rules: Record<string, unknown>[] };
  assert.equal(doc.Rules[0]?.["Transition"], { Days: 30, StorageClass: "COLD" });
  assert.equal(doc.Rules[0]?.["NoncurrentVersionTransition"], { NoncurrentDays: 5, StorageClass: "COLD" });
  assert.is((await mc(["ilm", "rule", "rm", "--id", "cold", "rgw/life2"])).code, 0);
});

ilm("should make the server expire objects under the rule's prefix :: real expiry (one day = 10 s here)", async () => {
  assert.is((await mc(["mb", "rgw/expiring"])).code, 0);
  await writeFile(join(work, "t.txt"), "temporary");
  assert.is((await mc(["cp", join(work, "t.txt"), "rgw/expiring/tmp/t.txt"])).code, 0);
  assert.is((await mc(["cp", join(work, "t.txt"), "rgw/expiring/keep/t.txt"])).code, 0);
  assert.is((await mc(["ilm", "rule", "add", "--prefix", "tmp/", "--expire-days", "1", "rgw/expiring"])).code, 0);
  const until = Date.now() + 90_000;
  let keys: string[] = [];
  for (;;) {
    keys = jsonLines((await mc(["ls", "-r", "--json", "rgw/expiring"])).stdout).map((e) => String(e["key"]));
    if (!keys.includes("tmp/t.txt") || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 2000));
    // RGW's own lifecycle thread may not pass for minutes: run a lifecycle pass
    // now (the rule still decides: the object must be a "day", 10 s, old).
    await rgw.admin(["lc", "process", "--rgw-lc-debug-interval", "10"]).catch(() => "");
  }
  assert.equal(keys, ["keep/t.txt"]);
});

ilm("should reject bad input before reaching the server", async () => {
  const cases: [string[], RegExp][] = [
    [["ilm", "rule", "add", "rgw/life"], /a rule needs an action/],
    [["ilm", "rule", "add", "--expire-days", "0", "rgw/life"], /--expire-days needs a whole number of days/],
    [["ilm", "rule", "add", "--expire-days", "abc", "rgw/life"], /--expire-days needs a whole number of days/],
    [["ilm", "rule", "add", "--expire-date", "2031-02-30", "rgw/life"], /--expire-date needs a date as YYYY-MM-DD/],
    [["ilm", "rule", "add", "--transition-days", "3", "rgw/life"], /a transition needs --storage-class/],
    [["ilm", "rule", "add", "--expire-days", "3", "--tags", "novalue", "rgw/life"], /--tags needs key=value pairs/],
    [["ilm", "rule", "add", "--expire-days", "3", "rgw/life/some/key"], /works on a bucket/],
    [["ilm", "rule", "add", "--expire-days", "3", "--expire-delete-marker", "rgw/life"], /--expire-delete-marker cannot be combined/],
    [["ilm", "rule", "edit", "--expire-days", "3", "rgw/life"], /ilm rule edit needs --id RULE_ID/],
    [["ilm", "rule", "add", "--id", "007", "--expire-days", "3", "rgw/life"], /a rule with ID `007` already exists/],
    [["ilm", "rule", "rm", "rgw/life"], /needs either --id RULE_ID or --all --force/],
    [["ilm", "rule", "rm", "--all", "rgw/life"], /needs --force/],
    [["ilm", "rule", "add", "--expire-days", "3", join(work, "x")], /needs a remote bucket/],
  ];
  for (const [args, re] of cases) {
    const r = await mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, re, args.join(" "));
    assert.not.match(r.stderr, /\n\s+at /, "no stack trace");
  }
  for (const input of ["", "not json", '{"Rules":[{"ID":"x","Status":"On","Expiration":{"Days":1}}]}', '{"Rules":[{"ID":"x","Status":"Enabled"}]}', '{"Rule":[]}', '{"Rules":[{"ID":"a","Status":"Enabled","Expiration":{"Days":1}},{"ID":"a","Status":"Enabled","Expiration":{"Days":2}}]}']) {
    const r = await mc(["ilm", "rule", "import", "rgw/life"], { input });
    assert.is(r.code, 1, input);
    assert.match(r.stderr, /^mc: <ERROR> (Invalid command usage, ilm rule import reads|Invalid lifecycle configuration)/, input);
  }
  const server = await mc(["ilm", "rule", "import", "rgw/life"], { input: '{"Rules":[{"ID":"x","Status":"Enabled","Expiration":{"Days":-4}}]}' });
  assert.is(server.code, 1);
  assert.match(server.stderr, /^mc: <ERROR> Unable to set the lifecycle configuration of `rgw\/life`\./);
  const nobucket = await mc(["ilm", "rule", "ls", "rgw/nosuchbucket", "--json"]);
  assert.is(nobucket.code, 1);
  assert.is(errorCode(nobucket.stdout), "NoSuchBucket");
});

ilm.run();

// ---

const encrypt = suite("encrypt on a server without bucket encryption configuration");

encrypt.before(async () => {
  assert.is((await mc(["mb", "rgw/enc"])).code, 0);
});

encrypt("should say in one line that bucket encryption is unsupported, with the server's code", async () => {
  for (const args of [["encrypt", "set", "sse-s3", "rgw/enc"], ["encrypt", "set", "sse-kms", "testkey-1", "rgw/enc"]]) {
    const r = await mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.is(r.stdout, "");
    assert.is(r.stderr, "mc: <ERROR> Bucket encryption configuration is not supported by this server. Server error code: InvalidArgument.\n");
  }
  const j = await mc(["encrypt", "set", "sse-s3", "rgw/enc", "--json"]);
  assert.is(j.code, 1);
  assert.is(errorCode(j.stdout), "InvalidArgument");
  for (const verb of ["info", "clear"]) {
    const r = await mc(["encrypt", verb, "rgw/enc"]);
    assert.is(r.code, 1, verb);
    assert.match(r.stderr, /^mc: <ERROR> Bucket encryption configuration is not supported by this server\. Server error code: none; it answered GET \?encryption with a ListBucketResult document\.\n$/);
  }
  // `clear` must not have sent the DELETE this server takes for DeleteBucket.
  assert.is((await mc(["stat", "rgw/enc"])).code, 0);
});

encrypt("should reject bad encrypt arguments", async () => {
  for (const args of [["encrypt", "set", "rgw/enc"], ["encrypt", "set", "sse-x", "rgw/enc"], ["encrypt", "set", "sse-kms", "rgw/enc"], ["encrypt", "set", "sse-s3", "k", "rgw/enc"], ["encrypt", "info"]]) {
    const r = await mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> Invalid command usage, encrypt/, args.join(" "));
  }
});

encrypt("should set, show and clear the configuration where the server has it :: fake S3 endpoint", async () => {
  let stored = "";
  const seen: string[] = [];
  const fake = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      seen.push(`${req.method ?? ""} ${req.url ?? ""}`);
      if (req.url !== "/bkt?encryption") {
        res.writeHead(400).end();
      } else if (req.method === "PUT") {
        stored = Buffer.concat(parts).toString();
        res.end();
      } else if (req.method === "DELETE") {
        stored = "";
        res.writeHead(204).end();
      } else if (stored === "") {
        res.writeHead(404, { "content-type": "application/xml" }).end("<Error><Code>ServerSideEncryptionConfigurationNotFoundError</Code></Error>");
      } else {
        res.writeHead(200, { "content-type": "application/xml" }).end(stored);
      }
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const env = { MC_HOST_fake: `http://key:secret@127.0.0.1:${(fake.address() as { port: number }).port}` };
  try {
    const set = await mc(["encrypt", "set", "sse-kms", "my-key", "fake/bkt"], { env });
    assert.is(set.code, 0, set.stderr);
    assert.is(set.stdout, "Auto encryption configuration has been set successfully for fake/bkt\n");
    assert.match(stored, /<SSEAlgorithm>aws:kms<\/SSEAlgorithm><KMSMasterKeyID>my-key<\/KMSMasterKeyID>/);
    const info = await mc(["encrypt", "info", "fake/bkt"], { env });
    assert.is(info.stdout, "Auto encryption 'sse' is enabled with algorithm SSE-KMS and key my-key for fake/bkt\n");
    const clear = await mc(["encrypt", "clear", "fake/bkt"], { env });
    assert.is(clear.code, 0, clear.stderr);
    assert.is((await mc(["encrypt", "info", "fake/bkt", "--json"], { env })).stdout, '{"status":"success","bucket":"fake/bkt","algorithm":"","keyId":""}\n');
    assert.equal(seen, ["PUT /bkt?encryption", "GET /bkt?encryption", "GET /bkt?encryption", "DELETE /bkt?encryption", "GET /bkt?encryption"]);
  } finally {
    fake.close();
  }
});

encrypt.run();

// ---

const sse = suite("SSE-C and SSE-KMS on cp, put, cat, get, stat");
const keyB64 = randomBytes(32).toString("base64");
const keyHex = randomBytes(32).toString("hex");
const secret = randomBytes(3000);

sse.before(async () => {
  assert.is((await mc(["mb", "rgw/secure"])).code, 0);
  await writeFile(join(work, "secret.bin"), secret);
});

sse("should write an SSE-C object that is unreadable without the key and readable with it", async () => {
  const put = await mc(["cp", "--enc-c", `rgw/secure/c/=${keyB64}`, join(work, "secret.bin"), "rgw/secure/c/one.bin"]);
  assert.is(put.code, 0, put.stderr);
  const plain = await mc(["cat", "rgw/secure/c/one.bin"]);
  assert.is(plain.code, 1);
  assert.is(plain.stdout, "");
  assert.is(plain.stderr, 'mc: <ERROR> Unable to read `rgw/secure/c/one.bin`. The object may be encrypted with a customer key (SSE-C): pass the matching key with --enc-c "alias/prefix=KEY".\n');
  const wrong = await mc(["cat", "--enc-c", `rgw/secure/c/=${randomBytes(32).toString("base64")}`, "rgw/secure/c/one.bin"]);
  assert.is(wrong.code, 1);
  const cat = await runRaw(["cat", "--enc-c", `rgw/secure/c/=${keyB64}`, "rgw/secure/c/one.bin"]);
  assert.ok(cat.equals(secret), "decrypted bytes");
  const get = await mc(["get", "--enc-c", `rgw/secure/=${keyB64}`, "rgw/secure/c/one.bin", join(work, "back.bin")]);
  assert.is(get.code, 0, get.stderr);
  const stat = await mc(["stat", "--json", "--enc-c", `rgw/secure/c/=${keyB64}`, "rgw/secure/c/one.bin"]);
  assert.is(stat.code, 0, stat.stdout);
  assert.is(jsonLines(stat.stdout)[0]?.["size"], secret.length);
  const text = await mc(["stat", "--enc-c", `rgw/secure/c/=${keyB64}`, "rgw/secure/c/one.bin"]);
  assert.match(text.stdout, /\nEncryption: SSE-C \n/);
});

sse("should accept a hex SSE-C key with put, and reject malformed keys", async () => {
  const put = await mc(["put", "--enc-c", `rgw/secure/h=${keyHex}`, join(work, "secret.bin"), "rgw/secure/h.bin"]);
  assert.is(put.code, 0, put.stderr);
  const cat = await runRaw(["cat", "--enc-c", `rgw/secure/h=${keyHex}`, "rgw/secure/h.bin"]);
  assert.ok(cat.equals(secret));
  for (const bad of [`rgw/secure/=${keyHex.slice(2)}`, "rgw/secure/=short", `nosuchalias/b/=${keyB64}`, keyB64, "rgw/secure/="]) {
    const r = await mc(["cat", "--enc-c", bad, "rgw/secure/h.bin"]);
    assert.is(r.code, 1, bad);
    assert.match(r.stderr, /^mc: <ERROR> Invalid command usage, --enc-c/, bad);
    assert.not.match(r.stderr, new RegExp(keyHex.slice(2, 20)), "the key is not echoed");
  }
});

sse("should encrypt every part of a multipart upload :: SSE-C and SSE-KMS", async () => {
  const big = randomBytes(11 * 1024 * 1024 + 17);
  await writeFile(join(work, "big.bin"), big);
  const putC = await mc(["put", "-s", "5MiB", "--enc-c", `rgw/secure/=${keyB64}`, join(work, "big.bin"), "rgw/secure/big-c.bin"]);
  assert.is(putC.code, 0, putC.stderr);
  assert.ok((await runRaw(["cat", "--enc-c", `rgw/secure/=${keyB64}`, "rgw/secure/big-c.bin"])).equals(big), "SSE-C multipart round trip");
  assert.is((await mc(["cat", "rgw/secure/big-c.bin"])).code, 1);
  const putK = await mc(["put", "-s", "5MiB", "--enc-kms", "rgw/secure/=testkey-2", join(work, "big.bin"), "rgw/secure/big-k.bin"]);
  assert.is(putK.code, 0, putK.stderr);
  const meta = (await s3.statObject("secure", "big-k.bin")).metaData as Record<string, string>;
  assert.is(meta["x-amz-server-side-encryption-aws-kms-key-id"], "testkey-2");
  assert.ok((await runRaw(["cat", "rgw/secure/big-k.bin"])).equals(big), "SSE-KMS multipart round trip");
  const back = await mc(["cp", "--enc-c", `rgw/secure/=${keyB64}`, "rgw/secure/big-c.bin", join(work, "big-back.bin")]);
  assert.is(back.code, 0, back.stderr);
  assert.ok((await readFile(join(work, "big-back.bin"))).equals(big), "download of an SSE-C multipart object");
});

sse("should write SSE-KMS objects with testkey-1 and read them back", async () => {
  const put = await mc(["cp", "--enc-kms", "rgw/secure/k/=testkey-1", join(work, "secret.bin"), "rgw/secure/k/one.bin"]);
  assert.is(put.code, 0, put.stderr);
  const stat = await s3.statObject("secure", "k/one.bin");
  const meta = stat.metaData as Record<string, string>;
  assert.is(meta["x-amz-server-side-encryption"], "aws:kms");
  assert.is(meta["x-amz-server-side-encryption-aws-kms-key-id"], "testkey-1");
  const cat = await runRaw(["cat", "rgw/secure/k/one.bin"]);
  assert.ok(cat.equals(secret));
  const text = await mc(["stat", "rgw/secure/k/one.bin"]);
  assert.match(text.stdout, /\nType      : file \nEncryption: SSE-KMS \(testkey-1\) \nMetadata  :\n/);
  const bad = await mc(["cp", "--enc-kms", "rgw/secure/k/=no-such-key", join(work, "secret.bin"), "rgw/secure/k/two.bin"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /^mc: <ERROR> Failed to copy/);
});

sse.after(async () => {
  await fx.stop();
});

sse.run();

async function runRaw(args: string[]): Promise<Buffer> {
  const { spawnMc } = await import("./mc-runner.js");
  const child = spawnMc(["-C", fx.configDir, ...args]);
  child.stdin?.end();
  const out: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  assert.is(code, 0, `mc ${args.join(" ")}`);
  return Buffer.concat(out);
}
