// Help for command groups as upstream prints it (contracts/mc.md §1): `mc GROUP`,
// `mc GROUP --help` and global flags before `--help` show the group's help on
// stdout and exit 0; an unknown subcommand is an error with suggestions.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { commands } from "../../cli/src/commands/index.js";
import { jsonLines, runMc, type McResult } from "./mc-runner.js";

const root = await mkdtemp(join(tmpdir(), "mc-group-help-"));
const mc = (args: readonly string[]): Promise<McResult> => runMc(["-C", join(root, "cfg"), ...args]);

/** Every proper prefix of a registered command path: the groups (`admin`, `admin kms`, `ilm rule`, …). */
function groups(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const command of commands) {
    for (const path of command.paths ?? []) {
      for (let n = 1; n < path.length; n++) {
        const key = path.slice(0, n).join(" ");
        const child = path[n] ?? "";
        out.set(key, (out.get(key) ?? new Set()).add(child));
      }
    }
  }
  return out;
}

function assertGroupHelp(r: McResult, group: string, children: Iterable<string>): void {
  assert.is(r.code, 0, `mc ${group}: ${r.stderr}`);
  assert.is(r.stderr, "");
  assert.match(r.stdout, new RegExp(`^NAME:\\n  mc ${group} - \\S.*\\n\\nUSAGE:\\n  mc ${group} COMMAND \\[COMMAND FLAGS \\| -h\\] \\[ARGUMENTS\\.\\.\\.\\]\\n\\nCOMMANDS:\\n`));
  const commandBlock = r.stdout.split("COMMANDS:\n")[1]?.split("\n\n")[0] ?? "";
  for (const child of children) {
    // One line per subcommand: its names (aliases after a comma) and a one-line description.
    assert.match(commandBlock, new RegExp(`^  ([\\w-]+, )*${child}(, [\\w-]+)*  +\\S`, "m"), `mc ${group}: no line for ${child}`);
  }
  assert.match(r.stdout, /\nFLAGS:\n(.*\n)*  --config-dir value, -C value +path to configuration folder/);
  assert.match(r.stdout, /\n  --help, -h +show help\n/);
}

const help = suite("group help");

help("should print the group's help and exit 0 for mc GROUP --help", async () => {
  assertGroupHelp(await mc(["admin", "--help"]), "admin", ["info", "kms"]);
  assertGroupHelp(await mc(["ilm", "rule", "--help"]), "ilm rule", ["add", "edit", "list", "remove", "export", "import"]);
  assertGroupHelp(await mc(["admin", "kms", "key", "-h"]), "admin kms key", ["create", "list", "status"]);
});

help("should print the group's help and exit 0 for a bare group, as upstream's commandNotFound with no argument", async () => {
  const r = await mc(["alias"]);
  assertGroupHelp(r, "alias", ["set", "list", "remove"]);
  assert.match(r.stdout, /^  list, ls  +list aliases in configuration file$/m);
});

help("should show every group of the registry with each of its subcommands", async () => {
  const all = [...groups()];
  assert.ok(all.length >= 10);
  for (const [group, children] of all) assertGroupHelp(await mc([...group.split(" "), "--help"]), group, children);
});

help("should honour global flags before --help: app help for mc FLAGS --help, group help for mc FLAGS GROUP --help", async () => {
  const app = await runMc(["--config-dir", join(root, "other"), "--help"]);
  assert.is(app.code, 0, app.stderr);
  assert.is(app.stderr, "");
  assert.match(app.stdout, /^NAME:\n  mc - \S.*\n\nUSAGE:\n  mc \[FLAGS\] COMMAND \[COMMAND FLAGS \| -h\] \[ARGUMENTS\.\.\.\]\n\nCOMMANDS:\n/);
  assert.match(app.stdout, /\nGLOBAL FLAGS:\n/);
  const json = await runMc(["--json", "-C", join(root, "cfg"), "admin", "--help"]);
  assertGroupHelp(json, "admin", ["info", "kms"]);
});

help("should list each top-level command once, on one line, and the global flags once in mc --help", async () => {
  const r = await mc(["--help"]);
  assert.is(r.code, 0);
  const block = r.stdout.split("COMMANDS:\n")[1]?.split("\n\n")[0] ?? "";
  const names = block.split("\n").map((l) => l.trim().split(/\s+/)[0]);
  const topLevel = [...new Set(commands.flatMap((c) => (c.paths ?? []).map((p) => p[0] ?? "")))];
  assert.equal([...names].sort(), [...topLevel].sort());
  assert.is(r.stdout.split("--config-dir value").length, 2, "the global flags are listed once");
});

help("should name an unknown subcommand with suggestions, never an empty 'did you mean'", async () => {
  const r = await mc(["admin", "kms", "key", "purge"]);
  assert.is(r.code, 1);
  assert.is(r.stdout, "");
  assert.is(r.stderr.split("\n")[0], "mc: <ERROR> `purge` is not a recognized command. Get help using `--help` flag.");
  assert.not.match(r.stderr, /did you mean one of:\s*$/i);
  const near = await mc(["admin", "kms", "key", "lst"]);
  assert.is(near.code, 1);
  assert.match(near.stderr, /^mc: <ERROR> `lst` is not a recognized command\. Get help using `--help` flag\.\nDid you mean one of these\?\n\t‘list’\n/);
  const json = await mc(["--json", "alias", "sett"]);
  assert.is(json.code, 1);
  const error = jsonLines(json.stdout)[0]?.["error"] as { message: string; cause: { message: string } };
  assert.is(error.message, "`sett` is not a recognized command. Get help using `--help` flag.");
  assert.ok(error.cause.message !== "");
});

help.after(async () => {
  await rm(root, { recursive: true, force: true });
});

help.run();
