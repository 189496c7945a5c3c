import { rename, rm, stat, writeFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { profile, profileCapability, profilerTypes } from "../../minio-admin/support.js";

/** upstream `profileFile`: saved in the current directory. */
const profileFile = "profile.zip";

/** Go layout "2006-01-02T15-04-05.999999-07-00" in UTC (upstream `dateTimeFormatFilename`), for the backup of an older profile.zip. */
function stamp(d: Date): string {
  return `${d.toISOString().replace(/:/g, "-").replace(/\.(\d{3})Z$/, (_m, ms: string) => (ms === "000" ? "" : `.${ms.replace(/0+$/, "")}`))}+00-00`;
}

/**
 * `mc support profile ALIAS [--type T] [--duration S]` (upstream
 * cmd/support-profile.go) in air-gapped mode: the server's profile zip is
 * saved as ./profile.zip (an older one kept as profile.zip.<time>) and never
 * uploaded anywhere.
 */
export class SupportProfileCommand extends BaseCommand {
  static override paths = [["support", "profile"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "save profile data for debugging (offline: written to ./profile.zip)",
    examples: [
      ["Profile the CPU of a cluster for 15 seconds.", "$0 support profile --type cpu --duration 15 myminio"],
      ["Profile CPU, memory and goroutines for 2 minutes.", "$0 support profile --type cpu,mem,goroutines --duration 120 myminio"],
    ],
  });
  duration = Option.String("--duration", "15", { description: "profile for the specified duration in seconds" });
  type = Option.String("--type", "cpu,mem,goroutines,runtime", { description: "profiler type, possible values are 'cpu', 'cpuio', 'mem', 'block', 'mutex', 'trace', 'threads', 'goroutines' and 'runtime'" });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    for (const p of this.type.toLowerCase().split(",")) {
      if (p !== "" && !(profilerTypes as readonly string[]).includes(p)) throw mcError(`Profiler type ${p} unrecognized. Possible values are: [${[...profilerTypes].sort().join(" ")}].`, undefined, "invalid_argument");
    }
    if (this.args.length !== 1) throw usageError("support profile needs one ALIAS.");
    const seconds = Number(this.duration);
    if (!/^-?\d+$/.test(this.duration)) throw usageError(`invalid value "${this.duration}" for flag --duration.`);
    if (seconds < 1) throw mcError("for any useful profiling one must run it for at least 1 second.", undefined, "invalid_argument");
    const target = adminTarget(ctx, this.args[0]);
    // A progress note, as upstream's: only on a terminal (quiet mode otherwise, contract §1).
    if (!ctx.output.quiet) ctx.output.line(`Profiling '${target.alias.name}' for ${seconds} seconds... `);
    const zip = await profile(target.client, this.type, seconds).catch((err: unknown) => {
      throw adminFailure("Unable to save profile data", profileCapability, err);
    });
    const temp = `.${profileFile}.${process.pid}.tmp`;
    try {
      await writeFile(temp, zip, { mode: 0o600 });
      const old = await stat(profileFile).catch(() => undefined);
      if (old?.isFile()) await rename(profileFile, `${profileFile}.${stamp(new Date())}`);
      else if (old !== undefined) throw new Error(`${profileFile} is not a file`);
      await rename(temp, profileFile);
    } catch (err) {
      await rm(temp, { force: true });
      throw mcError("Unable to save profile data.", err, "unavailable");
    }
    ctx.output.result({ status: "success", file: profileFile }, `Profiling data saved successfully at ${profileFile}`);
  }
}
