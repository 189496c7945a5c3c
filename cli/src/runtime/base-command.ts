import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { isClosedPipe } from "@mc/shared/closed-pipe";
import { resolveAliases } from "../config/aliases.js";
import { loadConfigDir } from "../config/config-dir.js";
import { currentPlatform } from "../config/home-dir.js";
import { createContext, type McContext } from "./context.js";
import { exitCodeOf, exitCodes } from "../core/exit-codes.js";
import { createOutput, type Output } from "../core/output.js";
import { resolveSettings, uploadSettings } from "./settings.js";
import { startUpdateCheck, type UpdateCheck } from "../update/update-check.js";

/**
 * After Ctrl-C the connections are cut on purpose: the errors that follow
 * (a socket hang up per request in flight) are not reported as failures.
 */
function silentAfterSignal(output: Output, signalled: () => boolean): Output {
  return { ...output, error: (err, type) => (signalled() ? undefined : output.error(err, type)) };
}

/**
 * Every mc command extends this: it declares the global flags (so they work on
 * every subcommand and after positional arguments), builds the context, and
 * owns the error → output → exit-code mapping. It never overrides catch().
 */
export abstract class BaseCommand extends Command {
  configDir = Option.String("-C,--config-dir", { description: "path to configuration folder (MC_CONFIG_DIR)" });
  quiet = Option.Boolean("-q,--quiet", { description: "disable progress bar display (MC_QUIET)" });
  json = Option.Boolean("--json", { description: "enable JSON lines formatted output (MC_JSON)" });
  debug = Option.Boolean("--debug", { description: "enable debug output (MC_DEBUG)" });
  insecure = Option.Boolean("--insecure", { description: "disable SSL certificate verification (MC_INSECURE)" });
  noColor = Option.Boolean("--no-color", { description: "disable color theme (MC_NO_COLOR)" });
  disablePager = Option.Boolean("--disable-pager,--dp", { description: "disable mc internal pager (MC_DISABLE_PAGER)", hidden: true });
  resolve = Option.Array("--resolve", { description: "resolves HOST[:PORT] to an IP address", hidden: true });
  customHeader = Option.Array("-H,--custom-header", { description: "add custom HTTP header to the request", hidden: true });
  limitUpload = Option.String("--limit-upload", { description: "limits uploads to a maximum rate", hidden: true });
  limitDownload = Option.String("--limit-download", { description: "limits downloads to a maximum rate", hidden: true });
  connReadDeadline = Option.String("--conn-read-deadline", { description: "custom connection READ deadline", hidden: true });
  connWriteDeadline = Option.String("--conn-write-deadline", { description: "custom connection WRITE deadline", hidden: true });

  /** The command's body; returns an exit code for partial failures (default 0). */
  abstract run(ctx: McContext): Promise<number | void>;

  /** Commands that never touch the configuration (none yet) could skip loading it. */
  protected commandName(): string {
    return this.path.join(" ");
  }

  async execute(): Promise<number> {
    const platform = currentPlatform();
    const stdout = this.context.stdout as NodeJS.WriteStream;
    const stderr = this.context.stderr as NodeJS.WriteStream;
    let output = createOutput({ json: this.json ?? false, quiet: true, debug: this.debug ?? false, stdout, stderr });
    const controller = new AbortController();
    let signal: NodeJS.Signals | undefined;
    const onSignal = (name: NodeJS.Signals): void => {
      // A second Ctrl-C does not wait for the clean-up.
      if (signal !== undefined) process.exit(exitCodeOf(undefined, { signal: name }));
      signal = name;
      controller.abort(new Error(`interrupted by ${name}`));
      // Clean-up gets 10 s: work that cannot be aborted (a file operation stuck in the kernel) must not keep
      // mc alive. Not process.exit: it joins the I/O threads, and a stuck one never returns. The signal
      // again, with its default action, ends the process at once, with the status a shell expects.
      setTimeout(() => {
        process.removeAllListeners(name);
        process.kill(process.pid, name);
      }, 10_000).unref();
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    let updateCheck: UpdateCheck | undefined;
    try {
      const settings = resolveSettings(this, platform);
      output = createOutput({ json: settings.json, quiet: settings.quiet, debug: settings.debug, stdout, stderr });
      const config = await loadConfigDir(settings.configDir);
      if (config.created && !settings.quiet && !settings.json) {
        stderr.write(`mc: Configuration written to \`${config.path}\`. Please update your access credentials.\n`);
      }
      // `mc update` reports on releases itself.
      if (this.path[0] !== "update") updateCheck = await startUpdateCheck({ configDir: config.dir, env: platform.env, silent: settings.json || settings.quiet });
      const ctx = createContext({
        settings,
        output: silentAfterSignal(output, () => signal !== undefined),
        config,
        aliases: resolveAliases(config.file, config.path, platform.env),
        signal: controller.signal,
        upload: uploadSettings(platform.env),
      });
      // A listing that passed over a folder it could not read did not do the whole job.
      const code = Math.max((await this.run(ctx)) ?? exitCodes.ok, ctx.unreadable() > 0 ? exitCodes.fatal : exitCodes.ok);
      return signal ? exitCodeOf(undefined, { signal }) : code;
    } catch (err) {
      if (signal) return exitCodeOf(err, { signal });
      // The reader went away (`| head`): nothing to report, as a process killed by SIGPIPE.
      if (isClosedPipe(err)) return exitCodeOf(err, { signal: "SIGPIPE" });
      if (isAppError(err) && err.details["usage"] === "true" && !output.json) {
        stderr.write(`mc: <ERROR> Invalid command usage, ${err.message}\n\n${this.cli.usage(this, { detailed: false })}`);
      } else {
        output.error(err, "fatal");
      }
      return exitCodeOf(err, { command: this.commandName() });
    } finally {
      // After the command's own output, whatever its outcome; never on Ctrl-C.
      if (signal === undefined) await updateCheck?.finish(stderr);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  }
}
