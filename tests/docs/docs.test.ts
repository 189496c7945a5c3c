// run-all: long (started first in the pool, so the run does not end waiting on it alone)
// Documentation that runs (issue 19): every shell block of the repository's
// Markdown is marked, and every block marked `<!-- run: KIND -->` runs against
// a fixture of that kind, in document order, checking its exit status, the
// output it shows and, for a publish, that the deployment serves the release.
// Conventions: tests/README.md.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { docBlocks, runnableBlocks, type DocBlock, type FixtureKind } from "./doc-blocks.js";
import { repoRoot, startFixture, type Fixture } from "./doc-fixtures.js";
import { checkEffects } from "./doc-effects.js";
import { setups } from "./doc-setups.js";
import { markdownFiles, readDoc, runBlock } from "./run-block.js";

// DOC_FILES=README.md,docs/operations.md runs only those files' blocks (the marker check still covers all).
const only = process.env["DOC_FILES"]?.split(",").filter((f) => f !== "");
const files = await markdownFiles(repoRoot);
const docs = await Promise.all(files.map(async (file) => ({ file, blocks: docBlocks(file, await readDoc(repoRoot, file)) })));
const parsed = docs.map((d) => ({ ...d, ...runnableBlocks(d.blocks) }));
const started = Date.now();
const timings: string[] = [];

const test = suite("documentation that runs");

test("every shell block of the repository's Markdown is marked run or not-run, with known fixtures and setups", () => {
  const problems = parsed.flatMap((d) => d.problems);
  for (const d of parsed) for (const b of d.runnable) for (const s of b.marker.setups) if (!setups[s]) problems.push(`${b.file}:${b.line}: no setup named ${s} (tests/docs/doc-setups.ts)`);
  assert.ok(problems.length === 0, `\n${problems.join("\n")}`);
  assert.ok(
    parsed.some((d) => d.file === "README.md" && d.runnable.length > 0),
    "README.md has no run block",
  );
});

// One fixture per kind for the whole run, started at its first block and stopped after its
// last: blocks of one file run in document order against it, with that file's own shell state.
const live = new Map<FixtureKind, Promise<Fixture>>();
const selected = parsed.filter((p) => !only || only.includes(p.file));
const order = selected.flatMap((d) => d.runnable);
const lastOfKind = new Map(order.map((b, i) => [b.marker.fixture, i]));

order.forEach((block, i) => {
  const kind = block.marker.fixture;
  test(`${block.file}:${block.line} (run: ${kind})`, async () => {
    const first = !live.has(kind);
    if (first) {
      const t = Date.now();
      live.set(
        kind,
        startFixture(kind).then((fx) => {
          timings.push(`  ${kind} fixture started in ${((Date.now() - t) / 1000).toFixed(1)} s`);
          return fx;
        }),
      );
    }
    try {
      const fx = await (live.get(kind) as Promise<Fixture>);
      if (!first) await fx.beforeBlock();
      const r = await runBlock(block, fx);
      timings.push(`  ${block.file}:${block.line} ${kind} ${(r.ms / 1000).toFixed(1)} s`);
      if (r.failure) assert.unreachable(`${r.failure}\n--- the ${kind} fixture's logs ---\n${await fx.diagnostics()}`);
      await checkEffects(block, fx, r);
    } finally {
      if (lastOfKind.get(kind) === i) {
        const fx = live.get(kind);
        live.delete(kind);
        const t = Date.now();
        await fx?.then((f) => f.stop()).catch(() => undefined);
        timings.push(`  ${kind} fixture stopped in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      }
    }
  });
});

test.after(async () => {
  for (const fx of live.values()) await fx.then((f) => f.stop()).catch(() => undefined);
  const notRun = parsed.flatMap((d) => d.blocks.filter((b): b is DocBlock & { marker: { kind: "not-run"; reason: string } } => b.marker?.kind === "not-run"));
  const ran = order.length;
  process.stdout.write(`\n\ndoc runner: ${ran} blocks run in ${((Date.now() - started) / 1000).toFixed(1)} s\n${timings.join("\n")}\n`);
  process.stdout.write(`not run (${notRun.length} blocks):\n${notRun.map((b) => `  ${b.file}:${b.line}  ${b.marker.reason}`).join("\n")}\n`);
});

test.run();
