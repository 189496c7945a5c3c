// mc alias export|import (upstream's JSON credentials) and anonymous get-json
// (issue 22) against Ceph RGW. Witnesses: config.json on disk, an imported
// alias that really works (aws s3api sees what it made), aws s3api's policy.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, runMc, startMcFixture } from "./mc-runner.js";

const exec = promisify(execFile);
const fx = await startMcFixture();
const { mc, work, rgw, configDir } = fx;
const aws = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await exec("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], {
      env: { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKey, AWS_SECRET_ACCESS_KEY: rgw.secretKey, AWS_DEFAULT_REGION: rgw.region },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
};

// ---

const alias = suite("alias export and import");

alias("should export config.json's entry as one line of JSON", async () => {
  const r = await mc(["alias", "export", "rgw/"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, `${JSON.stringify({ url: rgw.endpoint, accessKey: rgw.accessKey, secretKey: rgw.secretKey, api: "s3v4", path: "auto" })}\n`);
  // The same line with --json: it is the credentials file.
  assert.is((await mc(["alias", "export", "--json", "rgw"])).stdout, r.stdout);
});

alias("should import exported credentials into another configuration, and they work :: aws s3api", async () => {
  const other = await mkdtemp(join(work, "import-"));
  const exported = (await mc(["alias", "export", "rgw"])).stdout;
  const r = await runMc(["-C", other, "alias", "import", "copy"], { input: exported });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, "Imported `copy` successfully.\n");
  const saved = JSON.parse(await readFile(join(other, "config.json"), "utf8")) as { aliases: Record<string, unknown> };
  assert.equal(saved.aliases["copy"], { url: rgw.endpoint, accessKey: rgw.accessKey, secretKey: rgw.secretKey, api: "s3v4", path: "auto" });
  assert.is((await runMc(["-C", other, "mb", "copy/imported-bucket"])).code, 0);
  assert.is((await aws("s3api", "head-bucket", "--bucket", "imported-bucket")).code, 0);
  // From a file, with --json; a session token is kept; an empty path means auto.
  const file = join(work, "creds.json");
  await writeFile(file, JSON.stringify({ url: `${rgw.endpoint}/`, accessKey: "AKIA0000", secretKey: "secret-key-0000", sessionToken: "tok en", api: "S3v2" }));
  const json = await runMc(["-C", other, "alias", "import", "--json", "second", file]);
  assert.is(json.code, 0, json.stdout);
  assert.equal(jsonLines(json.stdout)[0], { status: "success", alias: "second", URL: rgw.endpoint, accessKey: "AKIA0000", secretKey: "secret-key-0000", api: "S3v2", path: "auto" });
  const text = await readFile(join(other, "config.json"), "utf8");
  assert.match(text, `"second": {\n\t\t\t"url": "${rgw.endpoint}",\n\t\t\t"accessKey": "AKIA0000",\n\t\t\t"secretKey": "secret-key-0000",\n\t\t\t"sessionToken": "tok en",\n\t\t\t"api": "S3v2",\n\t\t\t"path": "auto"\n\t\t}`);
});

alias("should refuse bad credentials in one line and leave config.json as it was", async () => {
  const before = await readFile(join(configDir, "config.json"), "utf8");
  const good = { url: "http://127.0.0.1:9000", accessKey: "minioadmin", secretKey: "minioadmin" };
  const cases: Array<[string, string]> = [
    ["{ truncated", "Unable to parse input credentials: not valid JSON. Expected property name or '}' in JSON at position 2."],
    ["[]", "Unable to import credentials: the JSON is not an object."],
    [JSON.stringify({ ...good, secretkey: "x" }), "Unable to import credentials: unknown field `secretkey`."],
    [JSON.stringify({ ...good, url: "ftp://host" }), "Unable to import credentials: invalid URL `ftp://host`."],
    [JSON.stringify({ ...good, url: "" }), "Unable to import credentials: invalid URL ``."],
    [JSON.stringify({ ...good, api: "S3v9" }), "Unable to import credentials: unrecognized API signature `S3v9`; valid options are S3v4, S3v2."],
    [JSON.stringify({ ...good, path: "sideways" }), "Unable to import credentials: unrecognized path value `sideways`; valid options are auto, on, off."],
    [JSON.stringify({ ...good, secretKey: "short" }), "Unable to import credentials: invalid secret key (at least 8 characters)."],
    [JSON.stringify({ ...good, accessKey: 7 }), "Unable to import credentials: `accessKey` must be text."],
  ];
  for (const [input, message] of cases) {
    const r = await mc(["alias", "import", "broken"], { input });
    assert.is(r.code, 1, input);
    assert.is(r.stderr, `mc: <ERROR> ${message}\n`, input);
  }
  const badName = await mc(["alias", "import", "9lives"], { input: JSON.stringify(good) });
  assert.is(badName.code, 1);
  assert.match(badName.stderr, /^mc: <ERROR> Invalid alias name `9lives`\./);
  const missing = await mc(["alias", "import", "x", join(work, "no-such.json")]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /^mc: <ERROR> Unable to read credentials file `.*no-such\.json`\./);
  const unknown = await mc(["alias", "export", "nosuch"]);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /^mc: <ERROR> Unable to export credentials: no alias `nosuch` in `.*config\.json`\.\n$/);
  assert.is(await readFile(join(configDir, "config.json"), "utf8"), before);
});

alias.run();

// ---

const policy = suite("anonymous get-json");

policy("should print the bucket policy the server holds :: aws s3api", async () => {
  assert.is((await mc(["mb", "rgw/pub"])).code, 0);
  assert.is((await mc(["anonymous", "get-json", "rgw/pub"])).stdout, "{}\n");
  assert.is((await mc(["anonymous", "get-json", "--json", "rgw/pub"])).stdout, '{"operation":"get-json","status":"success","bucket":"rgw/pub","permission":"private"}\n');
  assert.is((await mc(["anonymous", "set", "download", "rgw/pub/docs"])).code, 0);
  const stored = JSON.parse((JSON.parse((await aws("s3api", "get-bucket-policy", "--bucket", "pub")).stdout) as { Policy: string }).Policy) as unknown;
  const text = await mc(["anonymous", "get-json", "rgw/pub"]);
  assert.is(text.code, 0, text.stderr);
  assert.equal(JSON.parse(text.stdout), stored);
  // Go's map order (keys sorted), one-space indent, as upstream prints it.
  assert.match(text.stdout, /^{\n "Statement": \[\n  {\n   "Action": /);
  const json = jsonLines((await mc(["anonymous", "get-json", "--json", "rgw/pub/docs"])).stdout)[0];
  assert.is(json?.["permission"], "download");
  assert.equal(json?.["anonymous"], stored);
  // What get-json prints, set-json takes back.
  await writeFile(join(work, "policy.json"), text.stdout);
  assert.is((await mc(["anonymous", "set", "private", "rgw/pub"])).code, 0);
  assert.is((await mc(["anonymous", "set-json", join(work, "policy.json"), "rgw/pub"])).code, 0);
  assert.equal(JSON.parse((JSON.parse((await aws("s3api", "get-bucket-policy", "--bucket", "pub")).stdout) as { Policy: string }).Policy), stored);
});

policy("should refuse what is not a bucket", async () => {
  const local = await mc(["anonymous", "get-json", work]);
  assert.is(local.code, 1);
  assert.match(local.stderr, /is not an S3 target/);
  const none = await mc(["anonymous", "get-json", "rgw/no-such-bucket"]);
  assert.is(none.code, 1);
  assert.match(none.stderr, /^mc: <ERROR> Unable to get-json anonymous for `rgw\/no-such-bucket`\./);
});

policy.run();

// mb --region: CreateBucket carries the region as its LocationConstraint, --with-lock
// as the object-lock header, whatever region the alias signs for.
const region = suite("mb --region");

region("should make a bucket in the server's own region, with or without a lock :: aws s3api", async () => {
  const r = await mc(["mb", "--region", rgw.region, "--with-lock", "rgw/regional-lock", "rgw/regional"]);
  assert.is(r.code, 0, r.stderr);
  const lock = await aws("s3api", "get-object-lock-configuration", "--bucket", "regional-lock");
  assert.is(lock.code, 0, lock.stderr);
  assert.match(lock.stdout, /"ObjectLockEnabled": "Enabled"/);
  assert.is((await aws("s3api", "head-bucket", "--bucket", "regional")).code, 0);
});

region("should pass a region the server does not serve to it and print its refusal in one line", async () => {
  const r = await mc(["mb", "--region", "eu-west-1", "rgw/elsewhere"]);
  assert.is(r.code, 1, r.stdout);
  assert.match(r.stderr, /^mc: <ERROR> Unable to make bucket `rgw\/elsewhere`\. /);
  // The server's own answer: the request reached it (the SDK's makeBucket refuses another region itself).
  assert.match(r.stderr, /location-constraint is not valid/, r.stderr);
  assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.is((await aws("s3api", "head-bucket", "--bucket", "elsewhere")).code === 0, false, "nothing made");
});

region.after(async () => {
  await fx.stop();
});

region.run();
