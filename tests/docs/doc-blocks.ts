// The fenced blocks of a Markdown file and the markers that say what the doc
// runner does with them. A marker is an HTML comment on the line(s) right
// above the fence, invisible on a Git host:
//   <!-- run: KIND [with=SETUP[,SETUP]] [exit=N] -->   run this shell block
//   <!-- not-run: REASON -->                            listed, with the reason
//   <!-- output -->  /  <!-- output: stderr -->         the block shows what the
//                                                       previous run block prints
// Pure: text in, blocks out (tests/README.md has the whole convention).

export const fixtureKinds = ["none", "embedded", "cluster", "rgw", "clone"] as const;
export type FixtureKind = (typeof fixtureKinds)[number];

/** Fence languages that are commands: every such block needs a marker. */
export const shellLanguages = new Set(["sh", "bash", "shell", "zsh", "console", "shell-session"]);

export interface RunMarker {
  readonly kind: "run";
  readonly fixture: FixtureKind;
  readonly setups: readonly string[];
  readonly exit: number;
}
export interface NotRunMarker {
  readonly kind: "not-run";
  readonly reason: string;
}
export interface OutputMarker {
  readonly kind: "output";
  readonly stream: "stdout" | "stderr";
}
export type Marker = RunMarker | NotRunMarker | OutputMarker;

export interface ExpectedOutput {
  readonly stream: "stdout" | "stderr";
  readonly text: string;
  readonly line: number;
}

export interface DocBlock {
  /** Repository-relative path of the Markdown file. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  /** The block's lines, the fence's indentation removed. */
  readonly text: string;
  readonly marker: Marker | undefined;
  /** What the block's own syntax or marker got wrong (an unknown kind, a stray output marker). */
  readonly problems: readonly string[];
}

/** A runnable block: its script (prompts removed for console blocks) and the output it shows. */
export interface RunnableBlock extends DocBlock {
  readonly marker: RunMarker;
  readonly script: string;
  readonly expected: ExpectedOutput | undefined;
}

const fenceOpen = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const comment = /^\s*<!--\s*([\s\S]*?)\s*-->\s*$/;

function parseMarker(body: string, problems: string[]): Marker | undefined {
  const m = /^(run|not-run|output)\s*(?::\s*([\s\S]*))?$/.exec(body);
  if (!m) return undefined;
  const rest = (m[2] ?? "").trim();
  if (m[1] === "not-run") {
    if (rest === "") problems.push("<!-- not-run: --> needs a reason");
    return { kind: "not-run", reason: rest };
  }
  if (m[1] === "output") {
    if (rest !== "" && rest !== "stdout" && rest !== "stderr") problems.push(`<!-- output: ${rest} -->: the stream is stdout or stderr`);
    return { kind: "output", stream: rest === "stderr" ? "stderr" : "stdout" };
  }
  const [kind = "", ...options] = rest.split(/\s+/);
  if (!(fixtureKinds as readonly string[]).includes(kind)) problems.push(`<!-- run: ${kind} -->: the fixture is one of ${fixtureKinds.join(", ")}`);
  let setups: string[] = [];
  let exit = 0;
  for (const option of options) {
    const [key, value = ""] = option.split("=", 2);
    if (key === "with" && value !== "") setups = value.split(",");
    else if (key === "exit" && /^\d+$/.test(value)) exit = Number(value);
    else problems.push(`<!-- run: --> option ${option}: only with=SETUP[,SETUP] and exit=N`);
  }
  return { kind: "run", fixture: kind as FixtureKind, setups, exit };
}

/** Every fenced block of the file, with the marker of the comments right above it. */
export function docBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const out: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fenceOpen.exec(lines[i] ?? "");
    if (!open) continue;
    const [, indent = "", fence = "", lang = ""] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j] ?? "";
      if (l.trim().startsWith(fence[0]?.repeat(fence.length) ?? fence) && l.trim().replace(/[`~]/g, "") === "") break;
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
    }
    const problems: string[] = [];
    let marker: Marker | undefined;
    for (let k = i - 1; k >= 0; k--) {
      const c = comment.exec(lines[k] ?? "");
      if (!c) break;
      const found = parseMarker(c[1] ?? "", problems);
      if (found && marker) problems.push("more than one marker");
      marker ??= found;
    }
    out.push({ file, line: i + 1, lang: lang.toLowerCase(), text: body.join("\n") + "\n", marker, problems });
    i = j;
  }
  return out;
}

/** A console block's commands (after `$ `, with `\` continuations) and the lines it shows as their output. */
export function splitConsole(text: string): { script: string; output: string } {
  const script: string[] = [];
  const output: string[] = [];
  let continued = false;
  for (const l of text.replace(/\n$/, "").split("\n")) {
    if (continued || l.startsWith("$ ")) {
      script.push(continued ? l : l.slice(2));
      continued = l.endsWith("\\");
    } else output.push(l);
  }
  return { script: script.join("\n") + "\n", output: output.join("\n") };
}

/**
 * The file's run blocks with their expected output, and what is wrong with the
 * markers: an unmarked shell block, a marker on a block that is no command, an
 * output block that follows no run block.
 */
export function runnableBlocks(blocks: readonly DocBlock[]): { runnable: RunnableBlock[]; problems: string[] } {
  const runnable: RunnableBlock[] = [];
  const problems: string[] = [];
  const where = (b: DocBlock): string => `${b.file}:${b.line}`;
  let last: RunnableBlock | undefined;
  for (const b of blocks) {
    for (const p of b.problems) problems.push(`${where(b)}: ${p}`);
    const shell = shellLanguages.has(b.lang);
    if (b.marker?.kind === "output") {
      if (!last || last.expected) problems.push(`${where(b)}: <!-- output --> follows no run block (or a second one)`);
      else runnable[runnable.length - 1] = last = { ...last, expected: { stream: b.marker.stream, text: b.text, line: b.line } };
      continue;
    }
    last = undefined;
    if (!shell) {
      if (b.marker) problems.push(`${where(b)}: a ${b.marker.kind} marker on a \`${b.lang || "plain"}\` block, which is no shell block`);
      continue;
    }
    if (!b.marker) {
      problems.push(`${where(b)}: shell block without <!-- run: KIND --> or <!-- not-run: REASON -->`);
      continue;
    }
    if (b.marker.kind !== "run") continue;
    const console = b.lang === "console" || b.lang === "shell-session" ? splitConsole(b.text) : undefined;
    const shown = console && console.output.trim() !== "" ? { stream: "stdout" as const, text: console.output, line: b.line } : undefined;
    last = { ...b, marker: b.marker, script: console?.script ?? b.text, expected: shown };
    runnable.push(last);
  }
  return { runnable, problems };
}
