import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { CommandHelp } from "../help/command-help.js";
import { createCommandTree } from "../help/command-tree.js";
import { completeWords, type CompletionSources } from "./complete.js";

const tree = createCommandTree([
  { paths: [["cp"]], usage: { description: "copy" } },
  { paths: [["cat"]], usage: { description: "cat" } },
  { paths: [["ls"]], usage: { description: "list" } },
  { paths: [["ilm", "rule", "add"]], usage: { description: "add" } },
  { paths: [["ilm", "rule", "list"], ["ilm", "rule", "ls"]], usage: { description: "list" } },
]);

const cp: CommandHelp = {
  path: ["cp"],
  aliases: [],
  description: "copy",
  details: "",
  arguments: ["SOURCE [SOURCE...] TARGET"],
  flags: [
    { names: ["-r", "--recursive"], value: false, description: "" },
    { names: ["--attr"], value: true, description: "" },
  ],
  examples: [],
};

const asked: string[] = [];
const sources: CompletionSources = {
  tree,
  command: (path) => (path.join(" ") === "cp" ? cp : undefined),
  aliases: () => Promise.resolve(["myalias", "play"]),
  remote: (alias, rest) => {
    asked.push(`${alias}|${rest}`);
    return Promise.resolve([`${alias}/b1/`, `${alias}/b2/`].filter((w) => w.startsWith(`${alias}/${rest}`)));
  },
  local: (word) => Promise.resolve(["./pictures/", "./plan.txt"].filter((w) => w.startsWith(word))),
};

const t = suite("completion candidates");

t("should offer commands, subcommands with their aliases, and nothing after an unknown word", async () => {
  assert.equal(await completeWords(["c"], sources), ["cat", "cp"]);
  assert.equal(await completeWords([""], sources), ["cat", "cp", "ilm", "ls"]);
  assert.equal(await completeWords(["ilm", "rule", "l"], sources), ["list", "ls"]);
  assert.equal(await completeWords(["-C", "dir", "--json", "ilm", ""], sources), ["rule"]);
  assert.equal(await completeWords(["bogus", ""], sources), []);
  assert.equal(await completeWords(["ilm", "bogus", ""], sources), []);
});

t("should offer the command's flags and the global ones, and nothing for a flag's value", async () => {
  assert.equal(await completeWords(["cp", "--r"], sources), ["--recursive", "--resolve"]);
  assert.equal(await completeWords(["cp", "-"], sources).then((c) => c.includes("-r") && c.includes("--config-dir") && c.includes("--help")), true);
  assert.equal(await completeWords(["cp", "--attr", ""], sources), []);
  assert.equal(await completeWords(["-C", ""], sources), []);
  assert.equal(await completeWords(["--v"], sources), ["--version"]);
});

t("should offer aliases and local paths, and ask the server only for a known alias", async () => {
  assert.equal(await completeWords(["cp", "p"], sources), ["play/"]);
  assert.equal(await completeWords(["cp", "./p"], sources), ["./pictures/", "./plan.txt"]);
  assert.equal(await completeWords(["cp", "myalias/b"], sources), ["myalias/b1/", "myalias/b2/"]);
  assert.equal(await completeWords(["cp", "nosuch/b"], sources), []);
  assert.equal(asked, ["myalias|b"]);
});

t.run();
