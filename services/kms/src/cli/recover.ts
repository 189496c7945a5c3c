import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { damageOf } from "@mc/consensus";
import { Option, ProgramCommand } from "@mc/shared/program";
import { initCrypto } from "@mc/wasm";
import { loadConfig } from "../config/load-config.js";
import { StartupError } from "../config/startup-error.js";
import type { HsmConfig } from "../config/config.js";
import type { Hsm } from "../adapters/hsm/hsm.js";
import { openHsm } from "../adapters/hsm/open-hsm.js";
import { checkDataDir } from "../adapters/storage/check-data-dir.js";
import { listDataDir, raftFolderName } from "../adapters/storage/data-dir.js";
import { logFileName } from "../adapters/storage/command-log.js";
import { inspectDataDir } from "../adapters/storage/open-data-dir.js";
import { cutLog, moveAside, suggestCut } from "../adapters/storage/recover-log.js";
import { rootKeyFileName, type StorageMode } from "../adapters/storage/root-key-file.js";

export const recoverUsage = `Usage: kms recover (--config FILE | --data DIR) [--truncate-at N [--backup DIR] | --move-aside DIR]

Checks a stopped node's data directory as 'kms server' would, and changes
nothing unless told to. The HSM comes from the configuration (or KMS_HSM_KEY
with --data).
  (no action)        report what is damaged and what a cut would keep
  --truncate-at N    single node: cut log.bin at byte N (a point the report
                     names); the whole file and the bytes cut go to --backup
                     DIR first (default: DATA_DIR.recovered-<time> beside it)
  --move-aside DIR   cluster member: move the whole data directory to DIR, so
                     the node starts empty; remove and re-add it to rebuild
                     it from its peers (see docs/operations.md)
`;

/** The flags of `kms recover`. */
export interface RecoverOptions {
  readonly config: string | undefined;
  readonly data: string | undefined;
  readonly truncateAt: string | undefined;
  readonly backup: string | undefined;
  readonly moveAside: string | undefined;
}

interface Target {
  readonly dir: string;
  readonly mode: StorageMode;
  readonly hsm: HsmConfig | undefined;
}

async function targetOf(options: RecoverOptions): Promise<Target> {
  const configPath = options.config;
  const data = options.data;
  if (!configPath && !data) throw new StartupError(`kms: recover needs --config FILE or --data DIR\n\n${recoverUsage}`);
  const config = configPath ? await loadConfig(configPath) : undefined;
  const dir = data ? resolve(data) : (config?.dataDir ?? "");
  const envKey = process.env.KMS_HSM_KEY;
  const hsm = config?.hsm ?? (envKey ? { kind: "key" as const, key: envKey } : undefined);
  let mode: StorageMode = config?.cluster ? "cluster" : "single";
  if (!config) {
    // Without a configuration the directory says what it is.
    const names = (await listDataDir(dir, false)) ?? [];
    const text = await readFile(join(dir, rootKeyFileName), "utf8").catch(() => "");
    mode = /"mode":"cluster"/.test(text) || names.includes(raftFolderName) ? "cluster" : "single";
  }
  return { dir, mode, hsm };
}

async function hsmOf(t: Target): Promise<Hsm> {
  if (!t.hsm) throw new StartupError("kms: recover needs the HSM: --config FILE, or KMS_HSM_KEY with --data");
  await initCrypto();
  return openHsm(t.hsm, process.env);
}

const stamp = (): string => new Date().toISOString().replace(/[:.]/g, "-");

/** A word as a shell reads it back. */
const shellWord = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`);

/** The command line that names the same directory, for the cut the report suggests. */
function sameTarget(options: RecoverOptions): string {
  const words = options.config !== undefined ? ["--config", options.config] : ["--data", options.data ?? ""];
  if (options.backup !== undefined) words.push("--backup", options.backup);
  return words.map(shellWord).join(" ");
}

/** `kms recover`: report, or on request cut the log / move the directory aside. Exit 0 when the node would start. */
export async function recoverCommand(options: RecoverOptions, out: (line: string) => void): Promise<number> {
  const t = await targetOf(options);
  const aside = options.moveAside;
  if (aside) {
    await moveAside(t.dir, resolve(aside));
    out(`moved ${t.dir} to ${resolve(aside)}; the node starts empty.`);
    if (t.mode === "cluster") out("Now, from a healthy member: kms cluster remove HOST:PORT, start this node with the current members in cluster.nodes, then kms cluster add HOST:PORT.");
    return 0;
  }
  const hsm = await hsmOf(t);
  try {
    const cutAt = options.truncateAt;
    if (cutAt !== undefined) {
      if (t.mode !== "single") throw new StartupError("kms: --truncate-at cuts a single node's log.bin; a cluster member is rebuilt from its peers instead (--move-aside)");
      const at = Number(cutAt);
      if (!Number.isSafeInteger(at) || at < 0) throw new StartupError(`kms: --truncate-at needs a byte offset, got '${cutAt}'`);
      const names = (await listDataDir(t.dir)) ?? [];
      const inspected = await inspectDataDir(t.dir, names, hsm, t.mode).catch((err: unknown) => {
        const d = damageOf(err);
        throw new StartupError(d ? `kms: cannot cut the log while ${d.file} is damaged (${d.what})` : `kms: ${err instanceof Error ? err.message : String(err)}`);
      });
      const backup = resolve(options.backup ?? join(dirname(t.dir), `${basename(t.dir)}.recovered-${stamp()}`));
      const cut = await cutLog(t.dir, at, backup, inspected).catch((err: unknown) => {
        throw new StartupError(`kms: ${err instanceof Error ? err.message : String(err)}`);
      });
      out(`cut ${logFileName} at byte ${cut.at}: kept ${cut.kept} entries, set aside ${cut.bytesCut} bytes in ${backup}`);
    }
    const report = await checkDataDir(t.dir, hsm, t.mode);
    out(`kms recover: ${t.dir} (${t.mode === "single" ? "single node" : "cluster member"})`);
    for (const line of report.lines) out(`  ${line}`);
    const d = report.damage;
    if (d && t.mode === "single" && d.file === logFileName) {
      const names = (await listDataDir(t.dir, false)) ?? [];
      const inspected = await inspectDataDir(t.dir, names, hsm, t.mode);
      const buf = new Uint8Array(await readFile(join(t.dir, logFileName)));
      const cut = suggestCut(buf, d.offset, inspected);
      if (cut) {
        out(`  a cut at byte ${cut.at} keeps the ${cut.kept} entries before it and sets aside ${cut.bytesCut} bytes (the changes in them are lost):`);
        out(`    kms recover ${sameTarget(options)} --truncate-at ${cut.at}`);
      } else out("  no cut keeps the log usable: restore the data directory from a backup");
    } else if (d) {
      out(t.mode === "cluster" ? "  rebuild this member from its peers: kms recover ... --move-aside DIR (see docs/operations.md)" : "  restore the data directory from a backup (see docs/operations.md)");
    }
    out(report.verdict === "refuses" ? "result: the node refuses to start" : report.verdict === "new" ? "result: the next start is a first start" : "result: the node starts");
    return report.verdict === "refuses" ? 1 : 0;
  } finally {
    await hsm.close();
  }
}

export class RecoverCommand extends ProgramCommand {
  static override paths = [["recover"]];
  static override help = recoverUsage;

  config = Option.String("--config");
  data = Option.String("--data");
  truncateAt = Option.String("--truncate-at");
  backup = Option.String("--backup");
  moveAside = Option.String("--move-aside");

  async run(): Promise<number> {
    const out = (line: string): void => {
      process.stdout.write(`${line}\n`);
    };
    return recoverCommand({ config: this.config, data: this.data, truncateAt: this.truncateAt, backup: this.backup, moveAside: this.moveAside }, out);
  }
}
