// mc sql (S3 Select, event-stream decoded as it arrives) and mc admin info for
// an object-store alias, against Ceph RGW (contracts/mc.md §4-7). RGW Pacific
// speaks its own dialect (`select … from stdin`) and sends neither Stats nor End.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { jsonLines, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work, rgw } = fx;

// ---

const sql = suite("sql against RGW");

sql.before(async () => {
  assert.is((await mc(["mb", "rgw/tables"])).code, 0);
  await writeFile(join(work, "people.csv"), "name,age,city\nalice,30,paris\nbob,25,rome\ncarol,41,oslo\n");
  await writeFile(join(work, "people.json"), '{"name":"alice","age":30}\n{"name":"bob","age":25}\n');
  assert.is((await mc(["cp", join(work, "people.csv"), join(work, "people.json"), "rgw/tables/"])).code, 0);
});

sql("should return the rows of a CSV object, whole and filtered", async () => {
  const all = await mc(["sql", "--query", "select * from stdin;", "rgw/tables/people.csv"]);
  assert.is(all.code, 0, all.stderr);
  assert.is(all.stdout, "alice,30,paris\nbob,25,rome\ncarol,41,oslo\n");
  const older = await mc(["sql", "--query", "select name,city from stdin where int(age) > 28;", "rgw/tables/people.csv"]);
  assert.is(older.code, 0, older.stderr);
  assert.is(older.stdout, "alice,paris\ncarol,oslo\n");
  const positional = await mc(["sql", "--csv-input", "fh=IGNORE", "--query", "select _1 from stdin where int(_2) < 28;", "rgw/tables/people.csv"]);
  assert.is(positional.stdout, "bob\n");
  const count = await mc(["sql", "-e", "select count(*) from stdin;", "rgw/tables/people.csv"]);
  assert.is(count.stdout, "3\n");
});

sql("should return the rows of a JSON lines object", async () => {
  const r = await mc(["sql", "--json-input", "t=lines", "--query", "select * from stdin;", "rgw/tables/people.json"]);
  assert.is(r.code, 0, r.stderr);
  const rows = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as unknown);
  assert.equal(rows, [{ name: "alice", age: 30 }, { name: "bob", age: 25 }]);
});

sql("should print statistics as the last line with --json", async () => {
  const r = await mc(["sql", "--json", "--query", "select name from stdin;", "rgw/tables/people.csv"]);
  assert.is(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.slice(0, 3), ["alice", "bob", "carol"]);
  assert.equal(JSON.parse(lines[3] ?? ""), { status: "success", bytesScanned: null, bytesProcessed: null, bytesReturned: 16, serverStats: false });
});

sql("should report a query the server cannot parse in one line", async () => {
  const r = await mc(["sql", "--query", "select * from S3Object", "rgw/tables/people.csv"]);
  assert.is(r.code, 1);
  assert.is(r.stdout, "");
  assert.is(r.stderr, "mc: <ERROR> Unable to run the SQL query on `rgw/tables/people.csv`. The server could not parse the query near `S3Object` (this server's dialect reads `from stdin`).\n");
});

sql("should query an SSE-C object with its key and fail in one line without it", async () => {
  const key = randomBytes(32).toString("hex");
  assert.is((await mc(["cp", "--enc-c", `rgw/tables/enc/=${key}`, join(work, "people.csv"), "rgw/tables/enc/people.csv"])).code, 0);
  const ok = await mc(["sql", "--enc-c", `rgw/tables/enc/=${key}`, "--query", "select city from stdin;", "rgw/tables/enc/people.csv"]);
  assert.is(ok.code, 0, ok.stderr);
  assert.is(ok.stdout, "paris\nrome\noslo\n");
  const without = await mc(["sql", "--query", "select city from stdin;", "rgw/tables/enc/people.csv"]);
  assert.is(without.code, 1);
  assert.is(without.stdout, "");
  assert.match(without.stderr, /^mc: <ERROR> Unable to run the SQL query on `rgw\/tables\/enc\/people.csv`\. [^\n]*--enc-c\.\n$/);
});

sql("should reject bad input", async () => {
  const usage: [string[], RegExp][] = [
    [["sql", "rgw/tables"], /needs an object/],
    [["sql", "rgw/tables/people.csv", "rgw/tables/people.json"], /needs one TARGET/],
    [["sql", "--csv-input", "fh=SOMETIMES", "rgw/tables/people.csv"], /fh must be USE, IGNORE or NONE/],
    [["sql", "--csv-input", "xx=1", "rgw/tables/people.csv"], /unknown key `xx`/],
    [["sql", "--csv-input", "garbage", "rgw/tables/people.csv"], /needs key=value pairs/],
    [["sql", "--json-input", "t=tree", "rgw/tables/people.json"], /t must be lines or document/],
    [["sql", "--compression", "ZIP", "rgw/tables/people.csv"], /--compression must be NONE, GZIP or BZIP2/],
    [["sql", "--csv-input", "fh=USE", "--json-input", "t=lines", "rgw/tables/people.csv"], /use only one of/],
    [["sql", "--query", " ", "rgw/tables/people.csv"], /--query must not be empty/],
    [["sql", join(work, "people.csv")], /needs a remote bucket/],
  ];
  for (const [args, re] of usage) {
    const r = await mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, re, args.join(" "));
  }
  const missing = await mc(["sql", "--json", "--query", "select * from stdin;", "rgw/tables/nope.csv"]);
  assert.is(missing.code, 1);
  assert.match(missing.stdout, /"Code":"NoSuchKey"/);
});

sql.run();

// ---

const admin = suite("admin info for an object-store alias");

admin("should print endpoint, region, server and bucket count :: text", async () => {
  const r = await mc(["admin", "info", "rgw"]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^●  ${rgw.endpoint}\\n   Server: .+\\n   Region: \\S+\\n   Latency: [\\d.]+ms\\n   Buckets: 1\\n$`));
});

admin("should print the same as one JSON object :: json", async () => {
  assert.is((await mc(["mb", "rgw/second"])).code, 0);
  const r = await mc(["admin", "info", "rgw", "--json"]);
  assert.is(r.code, 0, r.stderr);
  const [v, ...rest] = jsonLines(r.stdout);
  assert.is(rest.length, 0);
  assert.is(v?.["status"], "success");
  const info = v?.["info"] as Record<string, unknown>;
  assert.equal(Object.keys(info), ["mode", "endpoint", "region", "server", "latencyMs", "buckets"]);
  assert.is(info["endpoint"], rgw.endpoint);
  assert.is(info["buckets"], 2);
  assert.type(info["latencyMs"], "number");
});

admin("should give the troubleshooting message for an unreachable alias", async () => {
  const port = await freePort();
  // An alias from the environment: `alias set` would probe the (absent) server.
  const env = { MC_HOST_down: `http://key:secret@127.0.0.1:${port}` };
  const r = await mc(["admin", "info", "down"], { env });
  assert.is(r.code, 1);
  assert.is(r.stdout, "");
  assert.is(r.stderr, `mc: <ERROR> Unable to get service info of \`down\` (http://127.0.0.1:${port}). connect ECONNREFUSED 127.0.0.1:${port}. Check the URL of the alias and that the server is running and reachable.\n`);
  const j = await mc(["admin", "info", "down", "--json"], { env });
  assert.is(j.code, 1);
  assert.is(jsonLines(j.stdout)[0]?.["status"], "error");
});

admin("should name bad credentials and unknown aliases", async () => {
  const host = new URL(rgw.endpoint).host;
  const bad = await mc(["admin", "info", "badkey"], { env: { MC_HOST_badkey: `http://${rgw.accessKey}:wrong-secret@${host}` } });
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /^mc: <ERROR> Unable to get service info of `badkey` \(.*\)\. The request signature we calculated does not match/);
  const none = await mc(["admin", "info", "nosuchalias"]);
  assert.is(none.code, 1);
  const usage = await mc(["admin", "info"]);
  assert.is(usage.code, 1);
});

admin("should show MinIO's admin info where the server has that API :: fake MinIO endpoint", async () => {
  const paths: string[] = [];
  const fake = createServer((req, res) => {
    paths.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ mode: "online", servers: [{ state: "online" }, { state: "online" }], buckets: { count: 3 }, objects: { count: 7 } }));
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const port = (fake.address() as { port: number }).port;
  try {
    const env = { MC_HOST_fake: `http://key:secret@127.0.0.1:${port}` };
    const r = await mc(["admin", "info", "fake"], { env });
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stdout, `●  http://127.0.0.1:${port}\n   Mode: online\n   Servers: 2\n   Buckets: 3\n   Objects: 7\n   Server release: (not reported)\n   mc release: DEVELOPMENT.GOGET\n`);
    assert.equal(paths, ["/minio/admin/v3/info"]);
    const j = jsonLines((await mc(["admin", "info", "fake", "--json"], { env })).stdout)[0];
    assert.is((j?.["info"] as Record<string, unknown>)["mode"], "online");
  } finally {
    fake.close();
  }
});

admin.after(async () => {
  await fx.stop();
});

admin.run();
