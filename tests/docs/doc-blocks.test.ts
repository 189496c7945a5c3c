// The doc runner's parts that decide without running anything: which blocks
// are commands, what their markers say, and when output matches.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { docBlocks, runnableBlocks, splitConsole } from "./doc-blocks.js";
import { matchOutput } from "./output-match.js";

const test = suite("doc blocks and output matching");

const md = [
  "# T",
  "<!-- run: embedded with=release-dir exit=2 -->",
  "```sh",
  "echo one",
  "```",
  "prints:",
  "<!-- output -->",
  "```text",
  "one",
  "```",
  "  <!-- not-run: needs Docker -->",
  "  ```bash",
  "  docker compose up",
  "  ```",
  "```sh",
  "unmarked",
  "```",
  "<!-- run: nowhere -->",
  "```console",
  "$ mc --version",
  "mc version <…>",
  "```",
  "<!-- output -->",
  "```text",
  "stray",
  "```",
  "<!-- run: none -->",
  "```ts",
  "const x = 1;",
  "```",
].join("\n");

test("markers, fences in lists, output blocks and the problems of a file", () => {
  const blocks = docBlocks("T.md", md);
  assert.equal(
    blocks.map((b) => [b.line, b.lang, b.marker?.kind]),
    [
      [3, "sh", "run"],
      [8, "text", "output"],
      [12, "bash", "not-run"],
      [15, "sh", undefined],
      [19, "console", "run"],
      [24, "text", "output"],
      [28, "ts", "run"],
    ],
  );
  assert.equal(blocks[0]?.marker, { kind: "run", fixture: "embedded", setups: ["release-dir"], exit: 2 });
  assert.is(blocks[2]?.text, "docker compose up\n");
  const { runnable, problems } = runnableBlocks(blocks);
  assert.equal(runnable[0]?.expected, { stream: "stdout", text: "one\n", line: 8 });
  assert.is(runnable[1]?.script, "mc --version\n");
  assert.is(runnable[1]?.expected?.text, "mc version <…>");
  assert.equal(problems, [
    "T.md:15: shell block without <!-- run: KIND --> or <!-- not-run: REASON -->",
    "T.md:19: <!-- run: nowhere -->: the fixture is one of none, embedded, cluster, rgw, clone",
    "T.md:24: <!-- output --> follows no run block (or a second one)",
    "T.md:28: a run marker on a `ts` block, which is no shell block",
  ]);
});

test("console blocks: prompts and continuations are the script, the rest the output", () => {
  assert.equal(splitConsole("$ a \\\n  --b\nout 1\n$ c\nout 2\n"), { script: "a \\\n  --b\nc\n", output: "out 1\nout 2" });
});

test("output: <…> is one run of non-space text, a `...` line any lines, trailing space ignored", () => {
  assert.is(matchOutput("API Key: <…>\nIdentity: <...>", "API Key: k1:abc  \nIdentity: h1:x\n\n"), undefined);
  assert.is(matchOutput("a\n...\nz", "a\nb\nc\nz\n"), undefined);
  assert.is(matchOutput("a\n…\nz", "a\nz"), undefined);
  assert.is(matchOutput("...", ""), undefined);
  assert.is(matchOutput("key <…>", "key two words"), "no match for shown line 1: \"key <…>\"");
  assert.is(matchOutput("a\nb", "a\nc"), 'no match for shown line 2: "b"');
  assert.is(matchOutput("a", "a\nmore"), "the output goes on after the last line shown");
  assert.is(matchOutput("x.y (z)", "xzy (z)"), 'no match for shown line 1: "x.y (z)"');
});

test.run();
