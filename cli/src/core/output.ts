import type { Writable } from "node:stream";
import { describeError } from "./errors.js";

export interface OutputOptions {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly debug: boolean;
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
}

export interface Output {
  readonly json: boolean;
  /** No progress bar: --quiet, --json or stdout not a terminal (contracts/mc.md §1). */
  readonly quiet: boolean;
  readonly stdout: Writable;
  /** One JSON object: indented with one space on a terminal, else one line. */
  printJson(value: unknown): void;
  /** A line of text on stdout. */
  line(text: string): void;
  /** `--json` ? the object : the text line. */
  result(value: unknown, text: string): void;
  /** A warning line on stderr (text form); the command and its status go on. */
  warn(message: string): void;
  /** A non-fatal error (partial failure): printed, and the command goes on. */
  error(err: unknown, type?: "error" | "fatal"): void;
}

export function createOutput(options: OutputOptions): Output {
  const tty = options.stdout.isTTY === true;
  const printJson = (value: unknown): void => {
    options.stdout.write(`${tty ? JSON.stringify(value, null, 1) : JSON.stringify(value)}\n`);
  };
  const line = (text: string): void => {
    options.stdout.write(`${text}\n`);
  };
  return {
    json: options.json,
    quiet: options.quiet || options.json || !tty,
    stdout: options.stdout,
    printJson,
    line,
    result(value, text) {
      if (options.json) printJson(value);
      else line(text);
    },
    warn(message) {
      options.stderr.write(`mc: <WARNING> ${message}\n`);
    },
    error(err, type = "error") {
      const d = describeError(err);
      if (options.json) {
        // An error without a cause of its own is its own cause: scripts read .error.cause.message and must never find it empty.
        const error: Record<string, unknown> = { message: d.message, cause: { message: d.causeMessage || d.message, error: d.causeError }, type };
        if (options.debug) {
          error["trace"] = { message: d.message, source: err instanceof Error ? (err.stack ?? "").split("\n").slice(1, 6).map((s) => s.trim()) : [] };
          error["sysinfo"] = { "host.name": process.env["HOSTNAME"] ?? "", "host.os": process.platform, "host.arch": process.arch, "host.lang": process.version };
        }
        printJson({ status: "error", error });
        return;
      }
      const cause = d.causeMessage === "" ? "" : ` ${d.causeMessage.replace(/\.$/, "")}.`;
      options.stderr.write(`mc: <ERROR> ${d.message}${cause}\n`);
      if (options.debug && err instanceof Error && err.stack) options.stderr.write(`${err.stack}\n`);
    },
  };
}
