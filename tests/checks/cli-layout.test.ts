// mc's source layout (issue 18): every command file sits at its command path
// (`mc ilm rule add` is cli/src/commands/ilm/rule/add.ts), the registry is
// the tree, and no two folders of cli/src import each other; the S3 protocol
// code (storage/) sits below the transfer engine, which sits below the
// command runtime. Each check also runs on a small tree that breaks it.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { commands } from "../../cli/src/commands/index.js";
import { commandFiles, folderCycles, folderEdges, misplacedCommands, pathOfFile, twoWayImports } from "./cli-layout.js";
import { repoRoot } from "./run-tool.js";

const src = join(repoRoot, "cli", "src");
const commandsDir = join(src, "commands");

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "cli-layout-"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const command = (name: string, paths: string): string =>
  `import { BaseCommand } from "../base.js";\nexport class ${name} extends BaseCommand {\n  static override paths = ${paths};\n}\n`;

const layout = suite("cli layout");

layout("should find every command file at its command path, exporting the class named after it", () => {
  assert.ok(commandFiles(commandsDir).length >= 80, "the command files were not found");
  assert.equal(misplacedCommands(commandsDir), []);
});

layout("should register exactly the command files, each under its own path", () => {
  const registered = commands.map((c) => (c.paths?.[0] ?? []).join(" ")).sort();
  const files = commandFiles(commandsDir).map((f) => pathOfFile(commandsDir, f).join(" ")).sort();
  assert.equal(registered, files);
  const check = spawnSync(process.execPath, [join(repoRoot, "cli", "scripts", "commands-index.mjs"), "--check"], { encoding: "utf8" });
  assert.is(check.status, 0, check.stderr);
});

layout("should have no two folders of cli/src importing each other", () => {
  assert.ok(folderEdges(src).length > 20, "the import graph was not read");
  assert.equal(twoWayImports(src), []);
  assert.equal(folderCycles(src), []);
});

layout("should keep the S3 protocol code below the transfer engine, and both below the command runtime", () => {
  const above = (from: string, banned: readonly string[]): string[] =>
    folderEdges(src)
      .filter((e) => (e.from === from || e.from.startsWith(`${from}/`)) && banned.some((b) => e.to === b || e.to.startsWith(`${b}/`)))
      .map((e) => e.example);
  assert.equal(above("storage", ["transfer", "runtime", "helpers", "commands"]), []);
  assert.equal(above("transfer", ["runtime", "helpers", "commands"]), []);
  assert.equal(above("runtime", ["helpers", "commands"]), []);
});

layout("should name a command file whose path differs from its command path", async () => {
  const root = await tree({
    "commands/ilm/rule-add.ts": command("IlmRuleAddCommand", '[["ilm", "rule", "add"]]'),
    "commands/retention/clear.ts": command("RetentionClearCommand", '[["retention", "clear"], ["retention", "rm"]]'),
    "commands/tag/set.ts": command("TagSetCommand", '[["tag", "set"]]') + command("TagListCommand", '[["tag", "list"]]'),
    "commands/undo.ts": command("UndoItCommand", '[["undo"]]'),
    "commands/helper.ts": "export const notACommand = 1;\n",
    "commands/index.ts": "export const commands = [];\n",
  });
  try {
    const found = misplacedCommands(join(root, "commands"));
    assert.equal(found, [
      "helper.ts: a command file exports exactly one command class with static paths (found 0 classes, 0 paths)",
      "ilm/rule-add.ts: declares `mc ilm rule add`; its file would be commands/ilm/rule/add.ts",
      "tag/set.ts: a command file exports exactly one command class with static paths (found 2 classes, 2 paths)",
      "undo.ts: exports UndoItCommand; its class is UndoCommand",
    ]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

layout("should name two folders that import each other, and accept imports in one direction", async () => {
  const root = await tree({
    "storage/s3-store.ts": 'import { upload } from "../transfer/upload.js";\nimport type { Entry } from "./types.js";\nexport const store = [upload];\n',
    "storage/types.ts": "export interface Entry { key: string }\n",
    "transfer/upload.ts": 'import type { Entry } from "../storage/types.js";\nexport const upload = (e: Entry): string => e.key;\n',
    "transfer/copy.ts": 'export { upload } from "./upload.js";\nexport const later = () => import("../util/size.js");\n',
    "util/size.ts": "export const size = 1;\n",
  });
  try {
    assert.equal(twoWayImports(root), ["storage <-> transfer: storage/s3-store.ts -> transfer/upload.js; transfer/upload.ts -> storage/types.js"]);
    await rm(join(root, "storage", "s3-store.ts"));
    assert.equal(twoWayImports(root), []);
    assert.equal(folderEdges(root).map((e) => `${e.from} -> ${e.to}`).sort(), ["transfer -> storage", "transfer -> util"]);
    assert.equal(folderCycles(root), []);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

layout("should name folders that import each other round a longer cycle", async () => {
  const root = await tree({
    "runtime/context.ts": 'import { copy } from "../transfer/copy.js";\nexport const context = copy;\n',
    "transfer/copy.ts": 'import { store } from "../storage/store.js";\nexport const copy = store;\n',
    "storage/store.ts": 'import type { Ctx } from "../runtime/types.js";\nexport const store = (c: Ctx): Ctx => c;\n',
    "runtime/types.ts": "export type Ctx = string;\n",
  });
  try {
    assert.equal(twoWayImports(root), []);
    assert.equal(folderCycles(root), [["runtime", "storage", "transfer"]]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

layout.run();
