import { suite } from "uvu";
import * as assert from "uvu/assert";
import { commands } from "../commands/index.js";
import { splitCommandLine } from "./command-line.js";
import { createCommandTree } from "./command-tree.js";
import { groupDescriptions } from "./group-descriptions.js";
import { renderGroupHelp } from "./render-help.js";

const tree = createCommandTree([
  { paths: [["alias", "set"], ["alias", "s"]], usage: { description: "set a new alias" } },
  { paths: [["alias", "list"], ["alias", "ls"]], usage: { description: "list aliases" } },
  { paths: [["admin", "kms", "key", "create"]], usage: { description: "create a key" } },
  { paths: [["ls"]], usage: { description: "list buckets and objects" } },
]);

const t = suite("command tree");

t("should resolve words to a command, a group (with the word after it) or nothing", () => {
  assert.equal(tree.resolve(["alias", "ls", "x"]), { kind: "command", path: ["alias", "ls"] });
  assert.equal(tree.resolve(["ls"]), { kind: "command", path: ["ls"] });
  assert.equal(tree.resolve(["admin", "kms"]), { kind: "group", path: ["admin", "kms"], next: undefined });
  assert.equal(tree.resolve(["admin", "kms", "key", "delete"]), { kind: "group", path: ["admin", "kms", "key"], next: "delete" });
  assert.equal(tree.resolve(["lss"]), { kind: "unknown", word: "lss" });
});

t("should list a group's children once each, aliases on the command's line", () => {
  assert.equal(tree.entries(["alias"]), [
    { names: ["set", "s"], description: "set a new alias" },
    { names: ["list", "ls"], description: "list aliases" },
  ]);
  assert.equal(tree.entries([]).map((e) => e.names), [["alias"], ["admin"], ["ls"]]);
});

t("should lay out a group's help as upstream's template, columns two spaces apart", () => {
  const text = renderGroupHelp(tree, ["alias"]);
  assert.match(text, /^NAME:\n  mc alias - manage server credentials in configuration file\n\nUSAGE:\n  mc alias COMMAND \[COMMAND FLAGS \| -h\] \[ARGUMENTS\.\.\.\]\n\nCOMMANDS:\n  set, s    set a new alias\n  list, ls  list aliases\n\nFLAGS:\n/);
  assert.match(text, /\n  --help, -h  +show help\n$/);
});

t("should have a description for every group of the real registry", () => {
  const real = createCommandTree(commands);
  for (const group of real.groups()) assert.ok(groupDescriptions[group.join(" ")], `no description for group '${group.join(" ")}'`);
});

t.run();

const line = suite("command line");

line("should keep global flags' values out of the words and stop flags at --", () => {
  assert.equal(splitCommandLine(["-C", "dir", "--json", "admin", "--help"]), { leading: ["-C", "--json"], words: [{ word: "admin", index: 3 }] });
  assert.equal(splitCommandLine(["--config-dir=d", "ls", "-r", "a/b"]).words.map((w) => w.word), ["ls", "a/b"]);
  assert.equal(splitCommandLine(["rm", "--", "-odd"]).words.map((w) => w.word), ["rm", "-odd"]);
  assert.equal(splitCommandLine(["cat", "-"]).words.map((w) => w.word), ["cat", "-"]);
});

line.run();
