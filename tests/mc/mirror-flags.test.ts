// mirror --region, --preserve and --monitoring-address (issue 22) against
// Ceph RGW, with aws s3api and the file system as witnesses: buckets made
// for a whole-alias target carry the region; -a keeps times and modes both
// ways and a second run (even with --overwrite) copies nothing; the
// monitoring endpoint serves mirror's counters while `mirror --watch` runs,
// read by curl and scraped by a real Prometheus.
import { execFile } from "node:child_process";
import { chmod, mkdir, readdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startPrometheus } from "../harness/prometheus.js";
import { waitFor } from "../harness/wait-for.js";
import { jsonLines, spawnMc, startMcFixture } from "./mc-runner.js";
import { startRecordingS3 } from "./recording-s3.js";

const fx = await startMcFixture();
const run = promisify(execFile);
const s3api = async (...args: string[]): Promise<Record<string, unknown>> => {
  const { stdout } = await run("aws", ["s3api", ...args, "--endpoint-url", fx.rgw.endpoint, "--output", "json"], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: fx.rgw.accessKey, AWS_SECRET_ACCESS_KEY: fx.rgw.secretKey, AWS_DEFAULT_REGION: fx.rgw.region, AWS_EC2_METADATA_DISABLED: "true" },
  });
  return JSON.parse(stdout || "{}") as Record<string, unknown>;
};
/** The copy lines of a `--json` mirror (the summary is the last line). */
const copies = (stdout: string): Record<string, unknown>[] => jsonLines(stdout).filter((l) => "source" in l);

const T = suite("mirror --region, --preserve, --monitoring-address");
T.after(() => fx.stop());

T("--region: buckets made for a whole-alias target are created in that region (the CreateBucket body; RGW's bucket location); a region RGW does not serve is its one-line refusal", async () => {
  const src = join(fx.work, "regions");
  await mkdir(join(src, "region-alpha"), { recursive: true });
  await writeFile(join(src, "region-alpha", "a.txt"), "alpha");
  // The request itself, at a recording endpoint that has no such bucket yet.
  const rec = await startRecordingS3();
  rec.override = (r) => (r.method === "HEAD" && r.path.replace(/\/$/, "") === "/region-alpha" ? { status: 404 } : undefined);
  try {
    const r = await fx.mc(["mirror", "--region", "eu-central-1", src, "rec"], { env: { MC_HOST_rec: rec.host } });
    assert.is(r.code, 0, r.stderr);
    const create = rec.requests.find((q) => q.method === "PUT" && q.path.replace(/\/$/, "") === "/region-alpha");
    assert.match(create?.body.toString() ?? "", /<LocationConstraint>eu-central-1<\/LocationConstraint>/);
  } finally {
    await rec.close();
  }
  const made = await fx.mc(["mirror", "--region", "default", "--json", src, "rgw"]);
  assert.is(made.code, 0, made.stderr);
  assert.is((await s3api("get-bucket-location", "--bucket", "region-alpha"))["LocationConstraint"], "default");
  assert.equal(((await s3api("list-objects-v2", "--bucket", "region-alpha"))["Contents"] as { Key: string }[]).map((o) => o.Key), ["a.txt"]);
  await mkdir(join(src, "region-beta"));
  await writeFile(join(src, "region-beta", "b.txt"), "beta");
  const refused = await fx.mc(["mirror", "--region", "nowhere-1", src, "rgw"]);
  assert.is(refused.code, 1);
  assert.is(refused.stderr, "mc: <ERROR> Unable to create bucket at `rgw/region-beta`. The specified location-constraint is not valid.\n");
});

T("--preserve: times and mode ride in X-Amz-Meta-Mc-Attrs up and come back down; a second run copies nothing, --overwrite or not (file system, aws s3api, --json)", async () => {
  const src = join(fx.work, "pres-src");
  await mkdir(join(src, "sub dir"), { recursive: true });
  const old = new Date("2021-03-04T05:06:07Z");
  for (const [name, mode] of [["a.txt", 0o640], ["sub dir/b é.txt", 0o600]] as const) {
    await writeFile(join(src, name), `content of ${name}`);
    await chmod(join(src, name), mode);
    await utimes(join(src, name), old, old);
  }
  assert.is((await fx.mc(["mb", "rgw/pres"])).code, 0);
  const up = await fx.mc(["mirror", "-a", "--json", src, "rgw/pres/d"]);
  assert.is(up.code, 0, up.stderr);
  assert.is(copies(up.stdout).length, 2);
  const head = await s3api("head-object", "--bucket", "pres", "--key", "d/a.txt");
  const attrs = String((head["Metadata"] as Record<string, string>)["mc-attrs"]);
  assert.match(attrs, new RegExp(`(^|/)mtime:${Math.floor(old.getTime() / 1000)}#0(/|$)`));
  assert.match(attrs, /(^|\/)mode:33184(\/|$)/);
  for (const args of [["mirror", "-a", "--json", src, "rgw/pres/d"], ["mirror", "-a", "--overwrite", "--json", src, "rgw/pres/d"]]) {
    const again = await fx.mc(args);
    assert.is(again.code, 0, again.stderr);
    assert.equal(copies(again.stdout), [], args.join(" "));
    assert.is(jsonLines(again.stdout).at(-1)?.["transferred"], 0);
  }
  // An object put by another tool has no Mc-Attrs: the file gets the object's time.
  await s3api("put-object", "--bucket", "pres", "--key", "d/plain.txt", "--body", join(src, "a.txt"));
  const dst = join(fx.work, "pres-dst");
  const down = await fx.mc(["mirror", "-a", "--json", "rgw/pres/d", dst]);
  assert.is(down.code, 0, down.stderr);
  assert.is(copies(down.stdout).length, 3);
  const a = await stat(join(dst, "a.txt"));
  assert.equal([a.mtime.getTime(), a.mode & 0o7777], [old.getTime(), 0o640]);
  assert.equal([(await stat(join(dst, "sub dir", "b é.txt"))).mode & 0o7777], [0o600]);
  const plainTime = new Date(String((await s3api("head-object", "--bucket", "pres", "--key", "d/plain.txt"))["LastModified"])).getTime();
  // S3 answers whole seconds in HEAD (the listing has milliseconds): the same second.
  assert.is(Math.floor((await stat(join(dst, "plain.txt"))).mtime.getTime() / 1000), Math.floor(plainTime / 1000));
  const again = await fx.mc(["mirror", "-a", "--overwrite", "--json", "rgw/pres/d", dst]);
  assert.is(again.code, 0, again.stderr);
  assert.equal(copies(again.stdout), []);
  assert.is((await stat(join(dst, "a.txt"))).mtime.getTime(), old.getTime());
});

T("--monitoring-address: mirror --watch serves its counters at /metrics (curl, and a real Prometheus scraping it) and they grow as files are mirrored; a bad or busy address is one line", async () => {
  const src = join(fx.work, "mon-src");
  await mkdir(src);
  await writeFile(join(src, "one.txt"), "1".repeat(1500));
  assert.is((await fx.mc(["mb", "rgw/mon"])).code, 0);
  const port = await freePort();
  const child = spawnMc(["-C", fx.configDir, "mirror", "--watch", "--json", "--monitoring-address", `127.0.0.1:${port}`, src, "rgw/mon"]);
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const metrics = async (): Promise<string> => (await run("curl", ["-sS", `http://127.0.0.1:${port}/metrics`])).stdout;
  const value = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? "NaN");
  const prom = await startPrometheus(join(fx.work, "prometheus"), [{ name: "mirror", target: `127.0.0.1:${port}`, scheme: "http" }]);
  try {
    await waitFor(async () => value(await metrics(), "mc_mirror_total_s3ops") === 1, { what: "the first copy counted", timeoutMs: 20000 });
    const first = await metrics();
    assert.match(first, /^# TYPE mc_mirror_total_s3ops counter$/m);
    assert.is(value(first, "mc_mirror_total_s3uploaded_bytes"), 1500);
    assert.is(value(first, "mc_mirror_failed_s3ops"), 0);
    assert.match(first, /^mc_mirror_replication_duration_count\{object_size="LESS_THAN_1_MiB"\} 1$/m);
    await writeFile(join(src, "two.txt"), "22");
    await waitFor(async () => value(await metrics(), "mc_mirror_total_s3ops") === 2, { what: "the watched copy counted", timeoutMs: 20000 });
    assert.is(value(await metrics(), "mc_mirror_total_s3uploaded_bytes"), 1502);
    const query = async (q: string): Promise<string | undefined> => {
      const body = (await (await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as { data: { result: { value: [number, string] }[] } };
      return body.data.result[0]?.value[1];
    };
    await waitFor(async () => (await query("mc_mirror_total_s3ops")) === "2", { what: "Prometheus's scrape", timeoutMs: 20000 });
    assert.is(await query('mc_mirror_replication_duration_count{object_size="LESS_THAN_1_KiB"}'), "1");
    assert.is((await prom.targets())["mirror"]?.health, "up");
    assert.ok(copies(out).some((l) => String(l["target"]) === "rgw/mon/two.txt"));
    // The endpoint's port is taken now: a second mirror cannot serve it.
    const busy = await fx.mc(["mirror", "--monitoring-address", `127.0.0.1:${port}`, src, "rgw/mon"]);
    assert.is(busy.code, 1);
    assert.match(busy.stderr, /^mc: <ERROR> Unable to setup monitoring endpoint\. [^\n]*EADDRINUSE[^\n]*\n$/);
  } finally {
    await prom.stop();
    child.kill("SIGINT");
  }
  assert.is(await exited, 130);
  const bad = await fx.mc(["mirror", "--monitoring-address", "not an address", src, "rgw/mon"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /^mc: <ERROR> Unable to setup monitoring endpoint\. `not an address` is not HOST:PORT\.\n$/);
});

T("should refuse to mirror a folder into itself or into its own parent, changing nothing :: the file system, aws s3api", async () => {
  // Local: --remove from a subfolder to its parent deleted the source's own files; into a subfolder, each run nested one level deeper.
  const top = join(fx.work, "overlap");
  await mkdir(join(top, "sub"), { recursive: true });
  await writeFile(join(top, "a.txt"), "a");
  await writeFile(join(top, "sub", "b.txt"), "b");
  const line = (from: string, to: string): string => `mc: <ERROR> Unable to mirror \`${from}\` to \`${to}\`: one is inside the other. Mirror into a folder outside the source.\n`;
  for (const [from, to, flags] of [[`${top}/sub/`, `${top}/`, ["--remove", "--overwrite"]], [top, `${top}/copy`, []], [`${top}/`, `${top}/`, []]] as const) {
    const r = await fx.mc(["mirror", ...flags, from, to]);
    assert.equal([r.code, r.stderr], [1, line(from, to)], `${from} -> ${to}`);
  }
  assert.equal((await readdir(top, { recursive: true })).sort(), ["a.txt", "sub", "sub/b.txt"]);
  // S3: the same bucket through another alias of the same server.
  assert.is((await fx.mc(["mb", "rgw/overlap"])).code, 0);
  assert.is((await fx.mc(["mirror", `${top}/`, "rgw/overlap/top/"])).code, 0);
  const other = { env: { MC_HOST_other: fx.rgw.endpoint.replace("://", `://${fx.rgw.accessKey}:${fx.rgw.secretKey}@`) } };
  const r = await fx.mc(["mirror", "--remove", "rgw/overlap/top/sub/", "other/overlap/top/"], other);
  assert.equal([r.code, r.stderr], [1, line("rgw/overlap/top/sub/", "other/overlap/top/")]);
  const listed = (await s3api("list-objects-v2", "--bucket", "overlap")) as { Contents?: { Key: string }[] };
  assert.equal((listed.Contents ?? []).map((o) => o.Key).sort(), ["top/a.txt", "top/sub/b.txt"]);
  // A folder beside it whose name only starts the same is not inside it.
  assert.is((await fx.mc(["mirror", "rgw/overlap/top/", "rgw/overlap/top2/"])).code, 0);
});

T.run();
