// MinIO-only flags of issue 24: `--zip` on ls, cat, head and cp (MinIO's
// x-minio-extract header on the listing, HEAD and GET), compared request by
// request with minio-go doing the same (`opts.Set("x-minio-extract", "true")`);
// and the bucket-notification watchers `find --watch` and `mirror
// --active-active` against a MinIO-like endpoint (tests/minio-admin/minio-like.ts)
// streaming records shaped by minio-go's notification types: the listen
// request is minio-go's, the records are decoded as they arrive, Ctrl-C
// ends the watch with 130 and a closed pipe with 141.
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, runMc, spawnMc } from "../mc/mc-runner.js";
import { waitFor } from "../harness/wait-for.js";
import { cannedAnswer, runDriver } from "./go-driver.js";
import { differential, startAdminFixture, type Normalized } from "./fixture.js";
import { startMinioLike } from "./minio-like.js";

const fx = await startAdminFixture();
const minio = await startMinioLike();
const dir = await mkdtemp(join(tmpdir(), "mc-zip-watch-"));
const configDir = await mkdtemp(join(tmpdir(), "mc-zip-watch-config-"));
// The first run's notice on stderr comes now, not in a watch whose stderr must stay empty.
await runMc(["-C", configDir, "alias", "list"]);
const template = (JSON.parse((await cannedAnswer("notification")).toString()) as { Records: Record<string, unknown>[] }).Records[0] ?? {};

/** A notification record from minio-go's template with another key, event and metadata. */
function record(key: string, eventName: string, extra: { userMetadata?: Record<string, string>; userAgent?: string; bucket?: string } = {}): unknown {
  const t = JSON.parse(JSON.stringify(template)) as { eventName: string; s3: { bucket: { name: string }; object: { key: string; userMetadata?: Record<string, string> } }; source: { userAgent: string } };
  t.eventName = eventName;
  t.s3.bucket.name = extra.bucket ?? "src";
  t.s3.object.key = encodeURIComponent(key).replace(/%20/g, "+");
  if (extra.userMetadata) t.s3.object.userMetadata = { ...t.s3.object.userMetadata, ...extra.userMetadata };
  if (extra.userAgent) t.source.userAgent = extra.userAgent;
  return t;
}
const put = (bucket: string, key: string, body: string, headers: Record<string, string> = {}): void => {
  minio.s3.objects.set(`${bucket}/${key}`, { body: Buffer.from(body), etag: createHash("md5").update(body).digest("hex"), headers, modified: new Date("2024-01-02T03:04:05.678Z") });
};

// minio-go addresses a bucket as `/BUCKET/` and sends fetch-owner; our listing sends max-keys, and every GET/HEAD asks for checksums.
const sameS3 = (n: Normalized): Normalized => ({ ...n, path: n.path.replace(/\/$/, ""), query: n.query.filter(([k, v]) => k !== "fetch-owner" && k !== "max-keys" && v !== ""), signedHeaders: n.signedHeaders.filter((h) => h !== "x-amz-checksum-mode") });
const listXml = (prefix: string, contents: readonly [string, number][], prefixes: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>photos</Name><Prefix>${encodeURIComponent(prefix)}</Prefix><EncodingType>url</EncodingType><IsTruncated>false</IsTruncated>${contents.map(([k, n]) => `<Contents><Key>${encodeURIComponent(k)}</Key><LastModified>2024-01-02T03:04:05.000Z</LastModified><ETag>"6f5902ac237024bdd0c176cb93063dc4"</ETag><Size>${n}</Size><StorageClass>STANDARD</StorageClass></Contents>`).join("")}${prefixes.map((p) => `<CommonPrefixes><Prefix>${encodeURIComponent(p)}</Prefix></CommonPrefixes>`).join("")}</ListBucketResult>`;
const zipAnswers = (req: { method: string; query: string; headers: Readonly<Record<string, string>> }) => {
  if (req.headers["x-minio-extract"] !== "true") return { status: 404, headers: { "content-type": "application/xml" }, body: "<Error><Code>NoSuchKey</Code></Error>" };
  if (req.method === "GET" && req.query.includes("list-type")) {
    const recursive = new URLSearchParams(req.query).get("delimiter") !== "/";
    return { headers: { "content-type": "application/xml" }, body: recursive ? listXml("2024.zip/", [["2024.zip/jan/a b.jpg", 3], ["2024.zip/notes.txt", 12]], []) : listXml("2024.zip/", [["2024.zip/notes.txt", 12]], ["2024.zip/jan/"]) };
  }
  return { headers: { "content-length": "12", etag: '"6f5902ac237024bdd0c176cb93063dc4"', "last-modified": "Tue, 02 Jan 2024 03:04:05 GMT" }, body: req.method === "HEAD" ? "" : "hello world\n" };
};

const T = suite("MinIO-only flags: --zip, find --watch, mirror --active-active");
T.after(async () => {
  await fx.stop();
  await minio.close();
  await rm(dir, { recursive: true, force: true });
  await rm(configDir, { recursive: true, force: true });
});

T("ls --zip: minio-go's listing of the archive as a folder with x-minio-extract signed; -r the same, recursive; upstream's text and JSON", async () => {
  const r = await differential(fx, { op: "zip-list", args: { bucket: "photos", prefix: "2024.zip/", recursive: false }, mc: ["ls", "--zip", "minio/photos/2024.zip"], responder: zipAnswers, mask: sameS3 });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/photos", [["delimiter", "/"], ["encoding-type", "url"], ["list-type", "2"], ["prefix", "2024.zip/"]]]]);
  assert.ok(r.requests[0]?.signedHeaders.includes("x-minio-extract"));
  assert.match(r.ours.stdout, /^\[[^\]]+\]      0B jan\/\n\[2024-01-02 03:04:05 UTC\]     12B STANDARD notes\.txt\n$/);
  const rec = await differential(fx, { op: "zip-list", args: { bucket: "photos", prefix: "2024.zip/", recursive: true }, mc: ["ls", "-r", "--zip", "minio/photos/2024.zip/", "--json"], responder: zipAnswers, mask: sameS3 });
  assert.equal(jsonLines(rec.ours.stdout).map((l) => l["key"]), ["jan/a b.jpg", "notes.txt"]);
  assert.equal(JSON.parse(rec.reference.stdout.toString()), ["2024.zip/jan/a b.jpg", "2024.zip/notes.txt"]);
});

T("cat|head|cp --zip: minio-go's StatObject then GetObject of the file inside the archive, both with x-minio-extract; the bytes of the file", async () => {
  const cat = await differential(fx, { op: "zip-get", args: { bucket: "photos", key: "2024.zip/notes.txt" }, mc: ["cat", "--zip", "minio/photos/2024.zip/notes.txt"], responder: zipAnswers, mask: sameS3 });
  assert.equal(cat.requests.map((q) => [q.method, q.path, q.signedHeaders.includes("x-minio-extract")]), [["HEAD", "/photos/2024.zip/notes.txt", true], ["GET", "/photos/2024.zip/notes.txt", true]]);
  assert.is(cat.ours.stdout, "hello world\n");
  assert.equal(JSON.parse(cat.reference.stdout.toString()), { read: 12, sha256: "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447", size: 12 });
  const head = await differential(fx, { op: "zip-get", args: { bucket: "photos", key: "2024.zip/notes.txt" }, mc: ["head", "--zip", "-n", "1", "minio/photos/2024.zip/notes.txt"], responder: zipAnswers, mask: sameS3 });
  assert.is(head.ours.stdout, "hello world\n");
  const where = await mkdtemp(join(dir, "cp-"));
  const cp = await differential(fx, { op: "zip-get", args: { bucket: "photos", key: "2024.zip/notes.txt" }, mc: ["cp", "--zip", "minio/photos/2024.zip/notes.txt", `${where}/`], responder: zipAnswers, mask: sameS3 });
  assert.equal(cp.requests.map((q) => q.method), ["HEAD", "GET"]);
  assert.is(await readFile(join(where, "notes.txt"), "utf8"), "hello world\n");
  // Without --zip no extension header is sent (and the file inside the archive is not found).
  fx.recorder.clear();
  const plain = await fx.mc(["cat", "minio/photos/2024.zip/notes.txt"]);
  assert.is(plain.code, 1);
  assert.not.ok(fx.recorder.requests.some((q) => "x-minio-extract" in q.headers));
  for (const args of [["ls", "--zip", "--versions", "minio/photos/2024.zip"], ["cat", "--zip", "--rewind", "1d", "minio/photos/2024.zip/notes.txt"], ["mv", "--zip", "minio/photos/2024.zip/notes.txt", where]]) {
    const bad = await fx.mc(args);
    assert.is(bad.code, 1, args.join(" "));
    assert.match(bad.stderr, /--zip cannot be used with/, args.join(" "));
  }
});

interface Running {
  readonly child: ChildProcess;
  out(): string;
  err(): string;
  readonly exit: Promise<number | null>;
}
function start(args: readonly string[]): Running {
  const child = spawnMc(["-C", configDir, ...args], { env: { MC_HOST_minio: minio.hostUrl } });
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  child.stdin?.end();
  // A watch that never ends would hang the suite: killed (and failing) after 25 s.
  const hang = setTimeout(() => child.kill("SIGKILL"), 25000);
  const exit = new Promise<number | null>((resolve) => child.once("close", (code) => (clearTimeout(hang), resolve(code))));
  return { child, out: () => out, err: () => err, exit };
}
/** The listen request's parameters (minio-go sends empty prefix/suffix, ours leaves them out), events sorted. */
const listenParams = (query: string): [string, string][] =>
  [...new URLSearchParams(query).entries()].filter(([, v]) => v !== "").sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));

T("find --watch: the listing, then objects created later judged by the same filters as minio-go's ListenBucketNotification delivers them; Ctrl-C is 130, a closed pipe 141", async () => {
  put("src", "a.jpg", "aaa");
  put("src", "b.txt", "bbb");
  // The reference first: minio-go's listen request for created objects.
  const ref = runDriver("listen", { endpoint: minio.host, access: "MINIOACCESS", secret: "MINIOSECRET123", args: { bucket: "src", prefix: "", suffix: "", events: ["s3:ObjectCreated:*"] } });
  await waitFor(() => minio.listening("src") === 1, { what: "the reference listening" });
  minio.emit("src", [record("new.jpg", "s3:ObjectCreated:Put")]);
  const done = await ref;
  assert.is(done.code, 0, done.stderr);
  assert.equal(JSON.parse(done.stdout.toString()), ["new.jpg"]);
  const refListen = minio.listens.at(-1);
  const f = start(["find", "minio/src", "--name", "*.jpg", "--watch"]);
  await waitFor(() => f.out().includes("minio/src/a.jpg\n") && minio.listening("src") === 1, { what: "the listing and the listen request", timeoutMs: 15000 });
  assert.equal(listenParams(minio.listens.at(-1)?.query ?? ""), listenParams(refListen?.query ?? ""));
  put("src", "later one.jpg", "later");
  minio.emit("src", [record("skip.txt", "s3:ObjectCreated:Put"), record("later one.jpg", "s3:ObjectCreated:Put")]);
  await waitFor(() => f.out().includes("minio/src/later one.jpg\n"), { what: "the new object found", timeoutMs: 15000 });
  assert.is(f.out(), "minio/src/a.jpg\nminio/src/later one.jpg\n");
  f.child.kill("SIGINT");
  assert.is(await f.exit, 130);
  assert.is(f.err(), "");
  const j = start(["find", "minio/src", "--watch", "--json"]);
  await waitFor(() => minio.listening("src") === 1 && j.out().split("\n").length > 3, { what: "the JSON listing", timeoutMs: 15000 });
  j.child.stdout?.destroy();
  minio.emit("src", [record("gone.jpg", "s3:ObjectCreated:Put")]);
  assert.is(await j.exit, 141);
  assert.is(j.err(), "");
});

T("mirror --active-active: copies marked X-Amz-Meta-Mm-Source-Mtime with mc-mirror:ALIAS as User-Agent; events followed: a mirror's own copy and a cyclical removal are not repeated, others are", async () => {
  put("src", "a.txt", "first");
  const m = start(["mirror", "--active-active", "minio/src", "minio/dst", "--json"]);
  await waitFor(() => minio.s3.objects.has("dst/a.txt") && minio.listening("src") === 1, { what: "the first pass and the listen request", timeoutMs: 15000 });
  const a = minio.s3.objects.get("dst/a.txt");
  assert.is(a?.headers["x-amz-meta-mm-source-mtime"], "2024-01-02T03:04:05.678Z");
  const upload = minio.s3.requests.find((q) => q.method === "PUT" && q.path === "/dst/a.txt");
  assert.match(String(upload?.headers["user-agent"]), /mc-mirror:minio\//);
  const listen = minio.listens.at(-1);
  const ref = runDriver("listen", { endpoint: minio.host, access: "MINIOACCESS", secret: "MINIOSECRET123", args: { bucket: "src", prefix: "", suffix: "", events: ["s3:ObjectCreated:*", "s3:ObjectRemoved:*"] } });
  await waitFor(() => minio.listening("src") === 2, { what: "the reference listening" });
  put("src", "b.txt", "second");
  put("src", "echo.txt", "written by the other site's mirror", { "x-amz-meta-mm-source-mtime": "2023-12-31T00:00:00Z" });
  put("src", "c.txt", "third");
  minio.emit("src", [record("b.txt", "s3:ObjectCreated:Put"), record("echo.txt", "s3:ObjectCreated:Put", { userMetadata: { "X-Amz-Meta-Mm-Source-Mtime": "2023-12-31T00:00:00Z" } }), record("c.txt", "s3:ObjectCreated:Put")]);
  assert.is((await ref).code, 0);
  assert.equal(listenParams(listen?.query ?? ""), listenParams(minio.listens.at(-1)?.query ?? ""));
  await waitFor(() => minio.s3.objects.has("dst/c.txt"), { what: "c.txt mirrored", timeoutMs: 15000 });
  assert.ok(minio.s3.objects.has("dst/b.txt"));
  assert.not.ok(minio.s3.objects.has("dst/echo.txt"), "a mirror's own copy is not copied back");
  minio.emit("src", [record("b.txt", "s3:ObjectRemoved:Delete", { userAgent: "MinIO (linux; amd64) minio-go/v7 mc-mirror:minio/RELEASE.2024" }), record("a.txt", "s3:ObjectRemoved:Delete", { userAgent: "mc (linux; amd64) mc-mirror:other/RELEASE.2024" })]);
  await waitFor(() => !minio.s3.objects.has("dst/a.txt"), { what: "a.txt removed", timeoutMs: 15000 });
  assert.ok(minio.s3.objects.has("dst/b.txt"), "a cyclical removal is not repeated");
  m.child.kill("SIGINT");
  assert.is(await m.exit, 130);
  const lines = jsonLines(m.out());
  assert.equal(lines.filter((l) => l["eventType"] !== undefined && l["eventType"] !== "").map((l) => [l["eventType"], String(l["target"])]), [["s3:ObjectCreated:Put", "minio/dst/b.txt"], ["s3:ObjectCreated:Put", "minio/dst/c.txt"], ["s3:ObjectRemoved:Delete", "minio/dst/a.txt"]]);
});

T.run();
