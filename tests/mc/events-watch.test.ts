// mc event add/list/remove (bucket notifications through an RGW SNS topic to a
// local HTTP receiver) and mc watch (local paths; remote buckets where the
// server can listen) against Ceph RGW (contracts/mc.md §4-7).
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { Client } from "minio";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createTopic } from "../../cli/src/storage/s3/bucket/sns-topic.js";
import { jsonLines, spawnMc, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work, rgw } = fx;
const endpoint = new URL(rgw.endpoint);
const s3 = new Client({ endPoint: endpoint.hostname, port: Number(endpoint.port), useSSL: false, accessKey: rgw.accessKey, secretKey: rgw.secretKey, region: "us-east-1", pathStyle: true });

interface Delivered {
  readonly eventName: string;
  readonly key: string;
}

/** A local HTTP endpoint that records the S3 event records POSTed to it. */
const received: Delivered[] = [];
const receiver: Server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on("data", (c: Buffer) => parts.push(c));
  req.on("end", () => {
    try {
      const doc = JSON.parse(Buffer.concat(parts).toString("utf8")) as { Records?: { eventName: string; s3: { object: { key: string } } }[] };
      for (const r of doc.Records ?? []) received.push({ eventName: r.eventName, key: r.s3.object.key });
    } catch {
      // Not an event: ignored, the assertions look for events only.
    }
    res.end("ok");
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/`;

async function waitFor<T>(what: string, probe: () => T | undefined, ms = 10000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---

const events = suite("event add, list, remove");
let arn = "";

events.before(async () => {
  assert.is((await mc(["mb", "rgw/notify"])).code, 0);
  arn = await createTopic(s3, "mc-events", { "push-endpoint": receiverUrl });
  assert.is(arn, "arn:aws:sns:default::mc-events");
});

events("should deliver a put event to the HTTP receiver after event add", async () => {
  const add = await mc(["event", "add", "rgw/notify", arn, "--event", "put", "--prefix", "in/"]);
  assert.is(add.code, 0, add.stderr);
  assert.is(add.stdout, `Successfully added ${arn}\n`);
  await writeFile(join(work, "note.txt"), "hello");
  assert.is((await mc(["cp", join(work, "note.txt"), "rgw/notify/out/skipped.txt"])).code, 0);
  assert.is((await mc(["cp", join(work, "note.txt"), "rgw/notify/in/note.txt"])).code, 0);
  const event = await waitFor("the put event", () => received.find((e) => e.key === "in/note.txt"));
  assert.match(event.eventName, /^ObjectCreated:/);
  assert.not.ok(received.some((e) => e.key === "out/skipped.txt"), "the prefix filter holds");
});

events("should list notifications :: text and json", async () => {
  const ls = await mc(["event", "ls", "rgw/notify"]);
  assert.is(ls.code, 0, ls.stderr);
  assert.is(ls.stdout, `${arn}   s3:ObjectCreated:*   Filter: prefix="in/"\n`);
  const [one, ...rest] = jsonLines((await mc(["event", "list", "rgw/notify", "--json"])).stdout);
  assert.is(rest.length, 0);
  assert.equal(Object.keys(one ?? {}), ["status", "id", "event", "prefix", "suffix", "arn"]);
  assert.equal(one?.["event"], ["s3:ObjectCreated:*"]);
  assert.is(one?.["arn"], arn);
});

events("should refuse a duplicate and bad input", async () => {
  const dup = await mc(["event", "add", "rgw/notify", arn, "--event", "put", "--prefix", "in/"]);
  assert.is(dup.code, 1);
  assert.match(dup.stderr, /^mc: <ERROR> A notification for `arn:aws:sns:default::mc-events` with the same events and filter already exists on `rgw\/notify`\.\n$/);
  assert.is((await mc(["event", "add", "-p", "rgw/notify", arn, "--event", "put", "--prefix", "in/"])).code, 0);
  const unknown = await mc(["event", "add", "rgw/notify", "arn:aws:sns:default::no-such-topic", "--event", "put"]);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /^mc: <ERROR> Unable to add the notification to `rgw\/notify`: the server has no target with ARN `arn:aws:sns:default::no-such-topic`\. Server error code: NoSuchKey\.\n$/);
  // Ceph has no s3:ObjectAccessed events, and the default set includes them.
  const defaults = await mc(["event", "add", "rgw/notify", arn]);
  assert.is(defaults.code, 1);
  assert.is(defaults.stderr, "mc: <ERROR> Unable to add the notification to `rgw/notify`: the server refused it for the events s3:ObjectCreated:*, s3:ObjectRemoved:*, s3:ObjectAccessed:*. InvalidArgument.\n");
  const usage: [string[], RegExp][] = [
    [["event", "add", "rgw/notify"], /event add needs TARGET and ARN/],
    [["event", "add", "rgw/notify", "not-an-arn"], /is not an ARN/],
    [["event", "add", "rgw/notify", "arn:aws:s3:::bucket"], /names neither an SNS topic/],
    [["event", "add", "rgw/notify", arn, "--event", "put,copy"], /unknown event `copy`/],
    [["event", "rm", "rgw/notify"], /needs --force/],
    [["event", "add", join(work, "dir"), arn], /needs a remote bucket/],
  ];
  for (const [args, re] of usage) {
    const r = await mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, re, args.join(" "));
  }
  const missing = await mc(["event", "ls", "rgw/nosuchbucket", "--json"]);
  assert.is(missing.code, 1);
  assert.match(missing.stdout, /"Code":"NoSuchBucket"/);
});

events("should remove by ARN and all with --force", async () => {
  assert.is((await mc(["event", "add", "rgw/notify", arn, "--event", "delete"])).code, 0);
  assert.is(jsonLines((await mc(["event", "ls", "rgw/notify", "--json"])).stdout).length, 2);
  const rmOther = await mc(["event", "rm", "rgw/notify", "arn:aws:sns:default::other"]);
  assert.is(rmOther.code, 1);
  assert.match(rmOther.stderr, /No notification for `arn:aws:sns:default::other`/);
  const rmDelete = await mc(["event", "rm", "rgw/notify", arn, "--event", "delete"]);
  assert.is(rmDelete.code, 0, rmDelete.stderr);
  const left = jsonLines((await mc(["event", "ls", "rgw/notify", "--json"])).stdout);
  assert.equal(left.map((e) => e["event"]), [["s3:ObjectCreated:*"]]);
  const all = await mc(["event", "rm", "rgw/notify", "--force"]);
  assert.is(all.code, 0, all.stderr);
  assert.is(all.stdout, "Successfully removed all notifications of rgw/notify\n");
  assert.is((await mc(["event", "ls", "rgw/notify"])).stdout, "");
  const before = received.length;
  assert.is((await mc(["cp", join(work, "note.txt"), "rgw/notify/in/after.txt"])).code, 0);
  await new Promise((r) => setTimeout(r, 500));
  assert.is(received.length, before, "no events after removal");
});

events.run();

// ---

const watch = suite("watch");

/** A running `mc watch ARGS`: its first output line, waited for while `poke` makes file events. */
function watchSession(args: readonly string[]) {
  const child = spawnMc(["-C", fx.configDir, "watch", ...args]);
  child.stdin?.end();
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  return {
    exited: new Promise<number | null>((resolve) => child.once("close", resolve)),
    firstLine: (what: string, poke: () => void) =>
      waitFor(
        what,
        () => {
          if (out.includes("\n")) return out.split("\n")[0];
          poke();
          return undefined;
        },
        20000,
      ),
    interrupt: () => child.kill("SIGINT"),
  };
}

watch("should report a file created in a watched local directory :: json", async () => {
  const dir = join(work, "watched");
  await mkdir(join(dir, "sub"), { recursive: true });
  const session = watchSession(["--json", dir]);
  try {
    // The watcher is armed some time after start-up: keep creating files until one is reported.
    let n = 0;
    const line = await session.firstLine("a watch event", () => void writeFile(join(dir, "sub", `new-${n++}.txt`), "12345"));
    const event = JSON.parse(line ?? "") as { status: string; events: { time: string; size: number; path: string; type: string }; source: Record<string, string> };
    assert.is(event.status, "success");
    assert.equal(Object.keys(event.events), ["time", "size", "path", "type"]);
    assert.is(event.events.type, "s3:ObjectCreated:Put");
    assert.match(event.events.path, new RegExp(`^${join(dir, "sub")}/new-\\d+\\.txt$`));
    assert.is(event.events.size, 5);
    assert.equal(Object.keys(event.source), ["host", "port", "userAgent"]);
  } finally {
    session.interrupt();
  }
  assert.is(await session.exited, 130);
});

watch("should report a removed file :: text", async () => {
  const dir = join(work, "watched2");
  await mkdir(dir, { recursive: true });
  const session = watchSession(["--events", "delete", dir]);
  try {
    let n = 0;
    const line = await session.firstLine("a delete event", () => {
      const file = join(dir, `gone-${n++}.txt`);
      void writeFile(file, "x").then(() => rm(file));
    });
    assert.match(line ?? "", new RegExp(`^\\[\\d{4}-\\d\\d-\\d\\dT[^\\]]+\\]        s3:ObjectRemoved:Delete ${dir}/gone-\\d+\\.txt$`));
  } finally {
    session.interrupt();
  }
  await session.exited;
});

watch("should refuse bad watch input", async () => {
  const missing = await mc(["watch", join(work, "no-such-dir")]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /^mc: <ERROR> Unable to watch `.*no-such-dir`\. No such file or directory\.\n$/);
  const events = await mc(["watch", "--events", "put,copy", work]);
  assert.is(events.code, 1);
  assert.match(events.stderr, /invalid --events `put,copy`/);
  const none = await mc(["watch"]);
  assert.is(none.code, 1);
});

watch("should say in one line that this server cannot listen for bucket notifications", async () => {
  const r = await mc(["watch", "rgw/notify"]);
  assert.is(r.code, 1);
  assert.is(r.stdout, "");
  assert.is(
    r.stderr,
    "mc: <ERROR> Listening for bucket notifications (ListenBucketNotification) is not supported by this server. Server error code: none; it answered the listen request with a ListBucketResult document.\n",
  );
});

watch("should stream events from a server that has the listen API :: fake MinIO endpoint", async () => {
  const queries: string[] = [];
  const fake = createServer((req, res) => {
    queries.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const record = { eventTime: "2026-01-02T03:04:05.000Z", eventName: "ObjectCreated:Put", s3: { bucket: { name: "photos" }, object: { key: "a+b%2Fc.jpg", size: 2048 } }, source: { host: "10.0.0.1", port: "", userAgent: "MinIO (linux; amd64)" } };
    // Keep-alive blanks, then one event; the connection stays open like the real API.
    res.write(" \n");
    res.write(`${JSON.stringify({ Records: [record] })}\n`);
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const port = (fake.address() as { port: number }).port;
  const child = spawnMc(["-C", fx.configDir, "watch", "--json", "--events", "put", "--suffix", ".jpg", "fake/photos"], { env: { MC_HOST_fake: `http://key:secret@127.0.0.1:${port}` } });
  child.stdin?.end();
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  try {
    const line = await waitFor("the streamed event", () => (out.includes("\n") ? out.split("\n")[0] : undefined), 15000);
    assert.equal(JSON.parse(line ?? ""), {
      status: "success",
      events: { time: "2026-01-02T03:04:05.000Z", size: 2048, path: "fake/photos/a b/c.jpg", type: "s3:ObjectCreated:Put" },
      source: { host: "10.0.0.1", port: "", userAgent: "MinIO (linux; amd64)" },
    });
    assert.equal(queries, ["/photos?events=s3%3AObjectCreated%3A%2A&suffix=.jpg"]);
  } finally {
    child.kill("SIGINT");
  }
  // Ctrl-C, not the server closing the stream, ends the command.
  assert.is(await exited, 130);
  fake.closeAllConnections();
  fake.close();
});

watch("should fail when the server ends the notification stream :: not a silent success", async () => {
  const fake = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    res.end(" \n");
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const port = (fake.address() as { port: number }).port;
  try {
    const r = await mc(["watch", "fake/photos"], { env: { MC_HOST_fake: `http://key:secret@127.0.0.1:${port}` } });
    assert.is(r.code, 1);
    assert.is(r.stderr, "mc: <ERROR> The server closed the notification stream of `fake/photos`.\n");
  } finally {
    fake.close();
  }
});

watch.after(async () => {
  receiver.close();
  await fx.stop();
});

watch.run();
