// Runs one documented block in its fixture, as a reader with one shell would:
// the blocks of one file and fixture share variables (`set -a`, saved with
// `export -p` when a block ends) and the working folder. Every command must
// succeed (`bash -e -o pipefail`) unless the marker names another exit status;
// a failing command is named by its line in the Markdown file.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunnableBlock } from "./doc-blocks.js";
import type { Fixture } from "./doc-fixtures.js";
import { runShell } from "./run-shell.js";
import { setups } from "./doc-setups.js";
import { matchOutput } from "./output-match.js";

export interface BlockResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** Undefined when the block did what the document says; else why not, naming the file and line. */
  readonly failure: string | undefined;
}

export const substitute = (text: string, fx: Fixture): string => fx.substitutions.reduce((t, [from, to]) => t.replaceAll(from, to), text);

const q = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

export async function runBlock(block: RunnableBlock, fx: Fixture, timeoutMs = 240_000): Promise<BlockResult> {
  // Each file is its own reader's shell: variables and the working folder carry over between its blocks only.
  const slug = block.file.replace(/[^A-Za-z0-9]+/g, "-");
  const state = join(fx.root, `shell-${slug}.sh`);
  const where = join(fx.root, `shell-${slug}.cwd`);
  let prelude = "";
  for (const name of block.marker.setups) {
    const setup = setups[name];
    if (!setup) throw new Error(`${block.file}:${block.line}: no setup named ${name}`);
    prelude += await setup(fx);
  }
  const head = [
    "set -a",
    `[ -f ${q(state)} ] && . ${q(state)}`,
    `[ -f ${q(where)} ] && cd "$(cat ${q(where)})"`,
    `trap 'rc=$?; export -p | grep -vE "^declare -x (PWD|OLDPWD|SHLVL|_)=" > ${q(state)}; pwd > ${q(where)}; exit $rc' EXIT`,
    substitute(prelude, fx).trimEnd(),
    "set -e -o pipefail",
    `trap 'echo "doc-runner: exit $? at line $((LINENO - __DOC_OFFSET))" >&2' ERR`,
    "",
  ].join("\n");
  const offset = head.split("\n").length; // the block's first line is line offset+1 of the script
  const script = `__DOC_OFFSET=${offset}\n${head}${substitute(block.script, fx)}`;
  const started = Date.now();
  const r = await runShell(fx, script, timeoutMs);
  const ms = Date.now() - started;
  const name = `${block.file}:${block.line} (run: ${block.marker.fixture})`;
  const shown = (): string => `\n--- block ---\n${block.script}--- stdout ---\n${r.stdout.slice(-4000)}\n--- stderr ---\n${r.stderr.slice(-4000)}`;
  let failure: string | undefined;
  if (r.timedOut) failure = `${name}: still running after ${timeoutMs / 1000} s, killed${shown()}`;
  else if (r.code !== block.marker.exit) {
    const at = /doc-runner: exit \d+ at line (\d+)/.exec(r.stderr)?.[1];
    // The fence is line block.line; the block's line 1 is the one after it.
    const line = at === undefined ? "" : `, the command on ${block.file}:${block.line + Number(at)}`;
    failure = `${name}: exit status ${r.code}, expected ${block.marker.exit}${line}${shown()}`;
  } else if (block.expected) {
    const got = block.expected.stream === "stdout" ? r.stdout : r.stderr.replace(/^doc-runner: .*\n/gm, "");
    const why = matchOutput(substitute(block.expected.text, fx), got);
    if (why) failure = `${name}: the ${block.expected.stream} differs from the output shown at ${block.file}:${block.expected.line}: ${why}${shown()}`;
  }
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, ms, failure };
}

/** The Markdown files of the repository: every *.md outside dependencies, build output and state folders. */
export async function markdownFiles(root: string, dir = ""): Promise<string[]> {
  const { readdir } = await import("node:fs/promises");
  const out: string[] = [];
  for (const e of await readdir(join(root, dir), { withFileTypes: true })) {
    const rel = dir === "" ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (["node_modules", ".git", ".data", ".cluster", ".scratch", "dist", "output"].includes(e.name)) continue;
      out.push(...(await markdownFiles(root, rel)));
    } else if (e.name.endsWith(".md")) out.push(rel);
  }
  return out.sort();
}

export const readDoc = (root: string, file: string): Promise<string> => readFile(join(root, file), "utf8");
