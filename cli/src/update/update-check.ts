/**
 * The update notifier's I/O (issue 28): a release build asks its release
 * folder for `mc.sha256sum` at most once a day, alongside the command and
 * never in its way: the request is dropped when the command ends first (it
 * is retried the next day), and its answer, or one remembered from an
 * earlier run, is printed once a day on stderr after the command's output.
 */
import type { ClientRequest } from "node:http";
import { readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { releaseTag } from "../core/version.js";
import { askFolder } from "./ask-folder.js";
import { parseReleaseId } from "./release-id.js";
import { isCheckDue, noticeFor, parseState, type UpdateCheckState } from "./update-notice.js";

export interface UpdateCheckOptions {
  readonly configDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** --json and --quiet silence the notice (and so the check). */
  readonly silent: boolean;
  readonly now?: number;
}

export interface UpdateCheck {
  /** Prints the notice owed (if any) and drops a request still under way. */
  finish(stderr: NodeJS.WritableStream): Promise<void>;
}

const none: UpdateCheck = { finish: () => Promise.resolve() };
/**
 * How long the end of a command waits for an answer already on its way (the
 * folder accepted the connection). A folder that refuses or never accepts
 * costs nothing; one that accepts and stalls costs at most this, once a day.
 */
const answerGraceMs = 250;
const stateFile = (dir: string): string => join(dir, "update-check.json");

function readState(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

async function saveState(dir: string, state: UpdateCheckState): Promise<void> {
  const file = stateFile(dir);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    await rename(temp, file);
  } catch {
    // A read-only config folder must not break the command; the check is best effort.
  }
}


/** Starts the day's check when one is due; a source checkout, MC_UPDATE=off, --json and --quiet never check. */
export async function startUpdateCheck(options: UpdateCheckOptions): Promise<UpdateCheck> {
  const running = parseReleaseId(releaseTag);
  const setting = (options.env["MC_UPDATE"] ?? "").toLowerCase();
  if (!running || options.silent || setting === "off" || setting === "false" || setting === "0") return none;
  const now = options.now ?? Date.now();
  // Synchronous, as config.json's read: on most runs of a day this is the only other file mc reads.
  const state = parseState(readState(stateFile(options.configDir)));
  let answer: string | undefined;
  let request: ClientRequest | undefined;
  let connected = (): boolean => false;
  let asked: Promise<void> = Promise.resolve();
  let current = state;
  if (isCheckDue(state, now)) {
    // Counted before asking: an unreachable folder costs one request a day, not one per command.
    current = { ...state, attemptedAt: now };
    await saveState(options.configDir, current);
    asked = askFolder(running, options.env, (req, isConnected) => {
      request = req;
      connected = isConnected;
    }).then(async (latest) => {
      if (latest === undefined) return;
      answer = latest;
      current = { ...current, latest };
      await saveState(options.configDir, current);
    });
  }
  return {
    async finish(stderr) {
      if (answer === undefined && request !== undefined) {
        if (connected()) await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, answerGraceMs).unref())]);
        request.destroy();
      }
      await asked;
      const notice = noticeFor(current, current.latest, running, options.now ?? Date.now());
      if (notice === undefined) return;
      stderr.write(`mc: ${notice}\n`);
      await saveState(options.configDir, { ...current, shownAt: options.now ?? Date.now() });
    },
  };
}
