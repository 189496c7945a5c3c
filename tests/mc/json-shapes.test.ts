// mc --json records field by field against fixtures written from the contract
// (contracts/mc.md §5, tests/fixtures/mc-json-shapes.json), served by an S3
// endpoint that sends what Ceph RGW never does: checksums, restore state,
// replication rules, a delete marker's 405.
import { readFile } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startFakeS3, type FakeAnswer } from "./fake-s3.js";
import { jsonLines, repoRoot, runMc } from "./mc-runner.js";

interface Case {
  readonly command: string[];
  readonly answers: Record<string, FakeAnswer>;
  readonly expected: Record<string, unknown>[];
}

const fixtures = JSON.parse(await readFile(join(repoRoot, "tests", "fixtures", "mc-json-shapes.json"), "utf8")) as Record<string, Case | string>;

/** `METHOD /path?a&b=c`: the path must match, every listed query parameter be present (with its value when given). */
function matches(route: string, method: string, url: URL): number {
  const [m = "", target = ""] = route.split(" ");
  const [path = "", query = ""] = target.split("?");
  if (m !== method || path !== decodeURIComponent(url.pathname)) return -1;
  const wanted = query === "" ? [] : query.split("&").map((p) => p.split("="));
  for (const [k = "", v] of wanted) {
    if (!url.searchParams.has(k)) return -1;
    if (v !== undefined && url.searchParams.get(k) !== v) return -1;
  }
  return wanted.length;
}

/** Placeholders of the fixture: {endpoint}, and "<time>" for a time set when mc runs. */
function resolve(value: unknown, endpoint: string, actual: unknown): unknown {
  if (value === "<time>") return typeof actual === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(actual) ? actual : value;
  if (typeof value === "string") return value.replace("{endpoint}", endpoint);
  if (Array.isArray(value)) return value.map((v, i) => resolve(v, endpoint, Array.isArray(actual) ? actual[i] : undefined));
  if (value !== null && typeof value === "object") {
    const a = (actual ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, endpoint, a[k])]));
  }
  return value;
}

const shapes = suite("--json records match the contract's fixtures");

for (const [name, c] of Object.entries(fixtures)) {
  if (typeof c === "string") continue;
  shapes(`should print ${name} exactly :: ${c.command.join(" ")}`, async () => {
    const fake = await startFakeS3((method, url) => {
      let best: FakeAnswer | undefined;
      let score = -1;
      for (const [route, answer] of Object.entries(c.answers)) {
        const s = matches(route, method, url);
        if (s > score) [best, score] = [answer, s];
      }
      return best;
    });
    const config = await mkdtemp(join(tmpdir(), "mc-shapes-"));
    try {
      const host = fake.endpoint.replace("http://", "http://FAKEACCESS:FAKESECRET@");
      const r = await runMc(["-C", config, ...c.command], { env: { MC_HOST_fake: host, TZ: "UTC" } });
      assert.is(r.code, 0, `${r.stdout}${r.stderr}\n${fake.seen.join("\n")}`);
      const got = jsonLines(r.stdout);
      // Key order is part of the shape: compare the records as JSON text.
      assert.is(JSON.stringify(got), JSON.stringify(resolve(c.expected, fake.endpoint, got)));
    } finally {
      await fake.close();
      await rm(config, { recursive: true, force: true });
    }
  });
}

shapes.run();
