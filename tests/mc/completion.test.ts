// Shell completion (issue 22): `mc --autocompletion` installs the scripts for
// bash, zsh and fish (one line, atomic, idempotent, an rc symlink kept), and
// the candidates come from mc itself: a real interactive bash under tmux
// completes `mc c<TAB>` to the registry's c* commands and `mc ls myalias/<TAB>`
// to the buckets of a real Ceph RGW (radosgw-admin the witness); fish's own
// `complete -C` runs the fish script; zsh's is parsed with `zsh -n`.
import { execFile } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { commands } from "../../cli/src/commands/index.js";
import { createCommandTree } from "../../cli/src/help/command-tree.js";
import { waitFor } from "../harness/wait-for.js";
import { mcBin, shell, startMcFixture, type McFixture, type McResult } from "./mc-runner.js";

const run = promisify(execFile);
const completion = suite("completion");
const topLevel = createCommandTree(commands).entries([]).flatMap((e) => e.names);
const tmuxSocket = `mc-completion-${process.pid}`;

let fx: McFixture;
let home = "";
let env: Record<string, string> = {};
let hanging: Server;
const held: Socket[] = [];

/** One shell line with the test's environment only (no MC_* of the developer's). */
const sh = (script: string): Promise<McResult> => shell(script, { cwd: home, env, hangMs: 120_000 });
const tmux = (args: readonly string[]): Promise<{ stdout: string }> => run("tmux", ["-L", tmuxSocket, ...args]);
const pane = async (): Promise<string[]> => (await tmux(["capture-pane", "-p", "-t", "t"])).stdout.split("\n");

completion.before(async () => {
  fx = await startMcFixture();
  home = await mkdtemp(join(tmpdir(), "mc-completion-"));
  const bin = join(home, "bin");
  await mkdir(bin);
  await writeFile(join(bin, "mc"), `#!/bin/sh\nexec '${process.execPath}' '${mcBin}' "$@"\n`);
  await chmod(join(bin, "mc"), 0o755);
  // A dotfile manager's layout: ~/.bashrc links to a private file without a final newline.
  await mkdir(join(home, "dotfiles"));
  await writeFile(join(home, "dotfiles", "bashrc"), "PS1='mc-test$ '", { mode: 0o600 });
  await symlink(join(home, "dotfiles", "bashrc"), join(home, ".bashrc"));
  // A server that accepts and never answers: completion gives up on it quietly.
  hanging = createServer((s) => held.push(s));
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  const hangPort = (hanging.address() as { port: number }).port;
  const keys = `${encodeURIComponent(fx.rgw.accessKey)}:${encodeURIComponent(fx.rgw.secretKey)}`;
  env = {
    HOME: home,
    PATH: `${bin}:/usr/bin:/bin`,
    SHELL: "/bin/bash",
    TERM: "xterm",
    // Listings of a loaded machine's RGW may take seconds; the stuck server's case sets its own.
    MC_COMPLETION_TIMEOUT_MS: "30000",
    MC_CONFIG_DIR: fx.configDir,
    MC_HOST_myalias: fx.rgw.endpoint.replace("://", `://${keys}@`),
    MC_HOST_stuck: `http://${keys}@127.0.0.1:${hangPort}`,
  };
  const local = join(home, "upload");
  await mkdir(join(local, "dir"), { recursive: true });
  await writeFile(join(local, "top.txt"), "top\n");
  await writeFile(join(local, "a b%+#ü.txt"), "odd\n");
  await writeFile(join(local, "dir", "inner.txt"), "inner\n");
  const made = await fx.mc(["mb", "rgw/alpha", "rgw/beta-photos", "rgw/gamma"]);
  assert.is(made.code, 0, made.stderr);
  const copied = await fx.mc(["cp", "--recursive", `${local}/`, "rgw/alpha/"]);
  assert.is(copied.code, 0, copied.stderr);
});

completion.after(async () => {
  await tmux(["kill-server"]).catch(() => undefined);
  for (const s of held) s.destroy();
  hanging.close();
  await fx.stop();
  await rm(home, { recursive: true, force: true });
});

completion("should install for bash, zsh and fish in one line, keep the rc symlink and its mode, and change nothing the second time", async () => {
  const first = await sh("mc --autocompletion");
  assert.is(first.code, 0, first.stderr);
  assert.is(first.stderr, "");
  assert.is(first.stdout, "Shell completion installed for bash (~/.bashrc), zsh (~/.zshrc), fish (~/.config/fish/completions/mc.fish); it works in shells started from now on.\n");
  const rc = join(home, "dotfiles", "bashrc");
  assert.ok((await lstat(join(home, ".bashrc"))).isSymbolicLink());
  assert.is(await readlink(join(home, ".bashrc")), rc);
  const script = join(home, ".local", "share", "mc", "completion", "mc.bash");
  assert.is(await readFile(rc, "utf8"), `PS1='mc-test$ '\n[ -f '${script}' ] && . '${script}'  # mc completion (mc --autocompletion)\n`);
  assert.is((await stat(rc)).mode & 0o777, 0o600);
  const files = [rc, script, join(home, ".zshrc"), join(home, ".local", "share", "mc", "completion", "mc.zsh"), join(home, ".config", "fish", "completions", "mc.fish")];
  const before = await Promise.all(files.map(async (f) => [await readFile(f, "utf8"), (await stat(f)).mtimeMs] as const));
  const second = await sh("mc --autocompletion");
  assert.is(second.code, 0, second.stderr);
  assert.match(second.stdout, /^Shell completion already installed for bash \(~\/\.bashrc\), zsh \(~\/\.zshrc\), fish \(~\/\.config\/fish\/completions\/mc\.fish\); nothing changed\.\n$/);
  assert.equal(await Promise.all(files.map(async (f) => [await readFile(f, "utf8"), (await stat(f)).mtimeMs] as const)), before);
  const parsed = await sh(`zsh -n "${files[3] ?? ""}" && fish -n "${files[4] ?? ""}" && bash -n "${script}" && echo parsed`);
  assert.is(parsed.stdout, "parsed\n", parsed.stderr);
});

completion("should answer from mc itself: odd object names, flags, and nothing, quietly, for a server that never answers", async () => {
  // The stuck server never answers: mc ending at all (before the run's hang limit) is its deadline at work.
  const r = await sh("mc __complete ls myalias/alpha/; echo ==; mc __complete cp --rec; echo ==; mc __complete ls myal; echo ==; MC_COMPLETION_TIMEOUT_MS=1000 mc __complete ls stuck/; echo \"== $?\"");
  assert.is(r.stderr, "");
  const [keys, flags, aliases, stuck] = r.stdout.split(/^==.*\n/m);
  assert.is(keys, "myalias/alpha/a b%+#ü.txt\nmyalias/alpha/dir/\nmyalias/alpha/top.txt\n");
  assert.is(flags, "--recursive\n");
  assert.is(aliases, "myalias/\n");
  assert.is(stuck, "");
  assert.match(r.stdout, /== 0\n$/);
});

/** Types `keys` at a fresh prompt and waits until the pane holds what `done` looks for. */
async function typeAndWait<T>(keys: readonly string[], done: (lines: string[]) => T | undefined, what: string): Promise<T> {
  await tmux(["send-keys", "-t", "t", "C-u", "clear", "Enter"]);
  await waitFor(async () => (await pane())[0] === "mc-test$", { what: "a cleared prompt", timeoutMs: 60_000 });
  await tmux(["send-keys", "-t", "t", ...keys]);
  // Each TAB runs mc once: a loaded machine may take seconds per run.
  return waitFor(async () => done(await pane()), { what, timeoutMs: 60_000 });
}

/** The names bash listed below the line typed (the prompt shows again after the list). */
const listed = (typed: string) => (lines: string[]): string[] | undefined => {
  const at = lines.indexOf(`mc-test$ ${typed}`);
  const again = lines.indexOf(`mc-test$ ${typed}`, at + 1);
  if (at < 0 || again < 0) return undefined;
  return lines.slice(at + 1, again).join(" ").split(/\s+/).filter((w) => w !== "").sort();
};

completion("should complete mc c<TAB> to the registry's c* commands and mc ls myalias/<TAB> to the RGW's buckets in an interactive bash", async () => {
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  await tmux(["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "200", "-y", "50", "env", "-i", ...envArgs, "bash", "-i"]);
  const commandsListed = await typeAndWait(["mc c", "Tab", "Tab"], listed("mc c"), "bash to list the c* commands");
  assert.equal(commandsListed, topLevel.filter((n) => n.startsWith("c")).sort());
  const buckets = (JSON.parse(await fx.rgw.admin(["bucket", "list"])) as string[]).sort();
  assert.equal(buckets, ["alpha", "beta-photos", "gamma"]);
  const bucketsListed = await typeAndWait(["mc ls myalias/", "Tab", "Tab"], listed("mc ls myalias/"), "bash to list the buckets");
  assert.equal(bucketsListed.map((b) => b.replace(/^myalias\//, "")), buckets.map((b) => `${b}/`));
  // One candidate is put in place, with no space after its slash.
  await typeAndWait(["mc ls myalias/be", "Tab"], (lines) => lines.includes("mc-test$ mc ls myalias/beta-photos/") || undefined, "bash to complete the bucket name in place");
});

completion("should complete through fish's own completion of the installed script", async () => {
  const r = await sh(`fish -c 'complete -C "mc c"; echo ==; complete -C "mc ls myalias/"'`);
  assert.is(r.code, 0, r.stderr);
  const [cmds, buckets] = r.stdout.split("==\n");
  assert.equal((cmds ?? "").split("\n").filter((l) => l !== "").map((l) => l.split("\t")[0]), topLevel.filter((n) => n.startsWith("c")).sort());
  assert.equal((buckets ?? "").split("\n").filter((l) => l !== ""), ["myalias/alpha/", "myalias/beta-photos/", "myalias/gamma/"]);
});

completion.run();
