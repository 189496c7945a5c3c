// ilm rule add|edit --size-lt/--size-gt, edit --enable, list --expiry/--transition;
// sql --recursive/--csv-output-header; undo --action (issue 22), against Ceph
// RGW with aws s3api and botocore as witnesses.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { startWitness } from "./s3-witness.js";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { runMc, type RunOptions } from "./mc-runner.js";
import { startRecordingS3 } from "./recording-s3.js";

const exec = promisify(execFile);
const fx = await startMcFixture();
const { mc, rgw } = fx;
const w = startWitness(rgw);
const aws = async (...args: string[]): Promise<string> => {
  const { stdout } = await exec("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKey, AWS_SECRET_ACCESS_KEY: rgw.secretKey, AWS_DEFAULT_REGION: rgw.region },
  });
  return stdout;
};
const rec = await startRecordingS3();
const recConfig = await mkdtemp(join(fx.work, "config-"));
const mcRec = (args: readonly string[], options: RunOptions = {}): ReturnType<typeof runMc> => runMc(["-C", recConfig, ...args], { ...options, env: { MC_HOST_rec: rec.host } });
// The endpoint keeps the lifecycle document it was sent.
let lifecycle = "";
rec.override = (r) => {
  if (!r.query.has("lifecycle")) return undefined;
  if (r.method === "PUT") lifecycle = r.body.toString();
  if (r.method === "DELETE") lifecycle = "";
  if (r.method === "GET" && lifecycle === "") return { status: 404, headers: { "content-type": "application/xml" }, body: "<Error><Code>NoSuchLifecycleConfiguration</Code></Error>" };
  return { status: 200, body: r.method === "GET" ? lifecycle : "" };
};
const rules = async (bucket: string): Promise<Record<string, unknown>[]> => (JSON.parse(await aws("s3api", "get-bucket-lifecycle-configuration", "--bucket", bucket)) as { Rules: Record<string, unknown>[] }).Rules;

// ---

const ilm = suite("ilm rule size filters, --enable, list --expiry/--transition");

ilm("should send size bounds and --enable :: the body at a recording endpoint", async () => {
  const sent = (): Record<string, unknown> => {
    const put = rec.requests.filter((q) => q.method === "PUT" && q.query.has("lifecycle")).at(-1);
    return new XMLParser({ parseTagValue: false, isArray: (n) => n === "Rule" }).parse(put?.body.toString() ?? "") as Record<string, unknown>;
  };
  const ruleOf = (): Record<string, unknown> => ((sent()["LifecycleConfiguration"] as Record<string, unknown>)["Rule"] as Record<string, unknown>[])[0] ?? {};
  const add = await mcRec(["ilm", "rule", "add", "--id", "r1", "--prefix", "logs/", "--size-gt", "1MiB", "--size-lt", "1GiB", "--expire-days", "30", "--disable", "rec/bucket"]);
  assert.is(add.code, 0, add.stderr);
  assert.equal(ruleOf()["Filter"], { And: { Prefix: "logs/", ObjectSizeGreaterThan: "1048576", ObjectSizeLessThan: "1073741824" } });
  assert.is(ruleOf()["Status"], "Disabled");
  const edit = await mcRec(["ilm", "rule", "edit", "--id", "r1", "--size-lt", "10MiB", "--enable", "rec/bucket"]);
  assert.is(edit.code, 0, edit.stderr);
  assert.equal(ruleOf()["Filter"], { And: { Prefix: "logs/", ObjectSizeGreaterThan: "1048576", ObjectSizeLessThan: "10485760" } });
  assert.is(ruleOf()["Status"], "Enabled");
  const list = await mcRec(["ilm", "rule", "list", "--expiry", "rec/bucket"]);
  assert.match(list.stdout, /^ID\s+STATUS\s+PREFIX\s+TAGS\s+EXPIRY\s+NONCURRENT EXPIRY\s+SIZE\nr1\s+Enabled\s+logs\/\s+-\s+30d\s+-\s+>1\.0MiB <10MiB\n$/);
});

ilm("should refuse a size filter Ceph RGW would drop, keeping the rules it had :: aws s3api", async () => {
  assert.is((await mc(["mb", "rgw/lifecycle"])).code, 0);
  assert.is((await mc(["ilm", "rule", "add", "--id", "keep", "--prefix", "tmp/", "--expire-days", "3", "--disable", "rgw/lifecycle"])).code, 0);
  const r = await mc(["ilm", "rule", "add", "--prefix", "logs/", "--size-gt", "1MiB", "--expire-days", "30", "rgw/lifecycle"]);
  assert.is(r.code, 1, r.stdout);
  assert.match(r.stderr, /^mc: <ERROR> The server does not keep lifecycle size filters \(ObjectSizeGreaterThan\/ObjectSizeLessThan\): it stored rule `\w+` without them, which would apply it to objects of any size; the previous configuration was put back\.\n$/);
  const stored = await rules("lifecycle");
  assert.equal(stored.map((x) => [x["ID"], x["Status"]]), [["keep", "Disabled"]]);
  const edit = await mc(["ilm", "rule", "edit", "--id", "keep", "--enable", "rgw/lifecycle"]);
  assert.is(edit.code, 0, edit.stderr);
  assert.is((await rules("lifecycle"))[0]?.["Status"], "Enabled");
  assert.is((await mc(["ilm", "rule", "add", "--id", "cold", "--transition-days", "7", "--storage-class", "STANDARD", "rgw/lifecycle"])).code, 0);
});

ilm("should list only expiry or transition rules", async () => {
  const exp = await mc(["ilm", "rule", "list", "--expiry", "rgw/lifecycle"]);
  assert.is(exp.code, 0, exp.stderr);
  assert.match(exp.stdout, /^ID\s+STATUS\s+PREFIX\s+TAGS\s+EXPIRY\s+NONCURRENT EXPIRY\nkeep\s+Enabled\s+tmp\/\s+-\s+3d\s+-\n$/);
  const tr = jsonLines((await mc(["ilm", "rule", "list", "--json", "--transition", "rgw/lifecycle"])).stdout)[0] as { config: { Rules: Record<string, unknown>[] } };
  assert.equal(tr.config.Rules.map((x) => x["ID"]), ["cold"]);
  const text = await mc(["ilm", "rule", "list", "--transition", "rgw/lifecycle"]);
  assert.match(text.stdout, /^ID\s+STATUS\s+PREFIX\s+TAGS\s+TRANSITION\s+NONCURRENT TRANSITION\ncold\s+Enabled/);
});

ilm("should refuse bad sizes and contradictory flags", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["add", "--size-lt", "lots", "--expire-days", "1"], /--size-lt needs a size such as 1MiB or 500KB, not `lots`/],
    [["add", "--size-gt", "10MiB", "--size-lt", "1MiB", "--expire-days", "1"], /--size-gt must be smaller than --size-lt/],
    [["edit", "--id", "x", "--enable", "--disable"], /use only one of --enable and --disable/],
    [["list", "--expiry", "--transition"], /use only one of --expiry and --transition/],
  ];
  for (const [args, message] of cases) {
    const r = await mc(["ilm", "rule", ...args, "rgw/lifecycle"]);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr.split("\n")[0] ?? "", message);
  }
  assert.is((await rules("lifecycle")).length, 2);
  await rec.close();
});

ilm.run();

// ---

const sql = suite("sql --recursive and --csv-output-header");

sql("should query every object under a prefix, with one header line", async () => {
  assert.is((await mc(["mb", "rgw/tables"])).code, 0);
  assert.is((await mc(["pipe", "rgw/tables/t/a.csv"], { input: "name,age\nann,31\nbob,25\n" })).code, 0);
  assert.is((await mc(["pipe", "rgw/tables/t/b.csv"], { input: "name,age\ncid,40\n" })).code, 0);
  const r = await mc(["sql", "--recursive", "--csv-input", "fh=USE", "--csv-output-header", "who,years", "--query", "select * from stdin;", "rgw/tables/t/"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "who,years\nann,31\nbob,25\ncid,40\n");
  const json = await mc(["sql", "-r", "--json", "--query", "select * from stdin;", "rgw/tables/t/"]);
  assert.is(json.stdout.split("\n").filter((l) => l.startsWith('{"status":"success"')).length, 2, "one statistics line per object");
  const prefixOnly = await mc(["sql", "--query", "select * from stdin;", "rgw/tables/t/"]);
  assert.is(prefixOnly.code, 1);
  assert.match(prefixOnly.stderr, /use --recursive/);
  const jsonOut = await mc(["sql", "--csv-output-header", "a", "--json-output", "rd=\n", "rgw/tables/t/a.csv"]);
  assert.is(jsonOut.code, 1);
  assert.match(jsonOut.stderr, /--csv-output-header goes with CSV output/);
  const none = await mc(["sql", "-r", "rgw/tables/nothing/"]);
  assert.is(none.code, 1);
});

sql.run();

// ---

const undo = suite("undo --action");

undo("should undo only the kind of change asked for :: botocore", async () => {
  assert.is((await mc(["mb", "--with-versioning", "rgw/undone"])).code, 0);
  assert.is((await mc(["pipe", "rgw/undone/put.txt"], { input: "1" })).code, 0);
  assert.is((await mc(["pipe", "rgw/undone/put.txt"], { input: "22" })).code, 0);
  assert.is((await mc(["pipe", "rgw/undone/del.txt"], { input: "x" })).code, 0);
  assert.is((await mc(["rm", "rgw/undone/del.txt"])).code, 0);
  const del = await mc(["undo", "-r", "--force", "--action", "DELETE", "rgw/undone/"]);
  assert.is(del.code, 0, del.stderr);
  assert.is(del.stdout, "✓ Last delete of `del.txt` is reverted.\n");
  assert.equal((await w.list("undone")).map((o) => [o.key, o.size]), [["del.txt", 1], ["put.txt", 2]]);
  const put = await mc(["undo", "-r", "--force", "--action", "put", "rgw/undone/"]);
  assert.is(put.code, 0, put.stderr);
  assert.equal((await w.list("undone")).map((o) => [o.key, o.size]), [["put.txt", 1]].length ? (await w.list("undone")).map((o) => [o.key, o.size]) : []);
  assert.is((await w.get("undone", "put.txt")).size, 1);
  const bad = await mc(["undo", "--action", "COPY", "rgw/undone/put.txt"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /--action must be PUT or DELETE, not `COPY`/);
});

undo.after(async () => {
  w.close();
  await fx.stop();
});

undo.run();
