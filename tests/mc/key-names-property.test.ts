// Generated names (fast-check, fixed seed) survive file -> S3 -> S3 -> file:
// cp -r up, a server-side cp -r across buckets, cp -r down. botocore and the
// file system judge each hop. A failure prints the seed and the shrunk names;
// KEY_NAMES_SEED=<seed> replays it.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { byKey, md5, readTree } from "./key-names-support.js";
import { startMcFixture } from "./mc-runner.js";
import { startWitness } from "./s3-witness.js";

const seed = Number(process.env["KEY_NAMES_SEED"] ?? 20261125);
const fx = await startMcFixture();
const { mc, work } = fx;
const w = startWitness(fx.rgw);

const tricky = fc.constantFrom(" ", "%", "%2F", "+", "#", "?", "&", "=", ";", "\\", "'", '"', "`", "..", "~", "\u00a0", "\u200d", "e\u0301", "\u00e9", "😀", "中");
const piece = fc.oneof(tricky, fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 }));
/** One path component a file system can hold: no `/` or NUL, not `.` or `..`, at most 200 bytes. */
const component = fc
  .array(piece, { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(""))
  .filter((s) => !/[/\0]/.test(s) && s !== "." && s !== ".." && Buffer.byteLength(s) <= 200);
/** Files at the top (`f-…`) and one level down (`d-…/…`): a file never shares its name with a folder. */
const fileName = fc.oneof(
  component.map((c) => `f-${c}`),
  fc.tuple(component, component).map(([d, f]) => `d-${d}/${f}`),
);

let run = 0;

const property = suite("generated names: file -> S3 -> S3 -> file");

property("should keep every generated name and its bytes on every hop", async () => {
  process.stdout.write(`\nkey names property: seed ${seed} (KEY_NAMES_SEED to replay)\n`);
  await w.createBucket("prop-a");
  await w.createBucket("prop-b");
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(fileName, { minLength: 1, maxLength: 15 }), async (names) => {
      const i = run++;
      const body = (n: string): Buffer => Buffer.from(`${i}:${n}`);
      const src = join(work, `src-${i}`);
      for (const n of names) {
        await mkdir(dirname(join(src, n)), { recursive: true });
        await writeFile(join(src, n), body(n));
      }
      const expected = names.map((n) => [`run-${i}/${n}`, md5(body(n))]).sort((a, b) => byKey(String(a[0]), String(b[0])));
      const up = await mc(["cp", "-r", `${src}/`, `rgw/prop-a/run-${i}/`]);
      assert.is(up.code, 0, up.stderr);
      assert.equal((await w.list("prop-a", `run-${i}/`)).map((o) => [o.key, o.etag]), expected);
      const across = await mc(["cp", "-r", `rgw/prop-a/run-${i}/`, `rgw/prop-b/run-${i}/`]);
      assert.is(across.code, 0, across.stderr);
      assert.equal((await w.list("prop-b", `run-${i}/`)).map((o) => [o.key, o.etag]), expected);
      const down = await mc(["cp", "-r", `rgw/prop-b/run-${i}/`, `${join(work, `out-${i}`)}/`]);
      assert.is(down.code, 0, down.stderr);
      const tree = await readTree(join(work, `out-${i}`));
      assert.equal([...tree.keys()].sort(byKey), [...names].sort(byKey));
      for (const n of names) assert.ok(tree.get(n)?.equals(body(n)), JSON.stringify(n));
    }),
    { seed, numRuns: 4, endOnFailure: true },
  );
});

property.after(async () => {
  w.close();
  await fx.stop();
});

property.run();
