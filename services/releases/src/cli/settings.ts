// What the commands of `releases` share: the flags that name the deployment's
// files (with their environment defaults) and the checks that turn a missing
// or malformed flag into one line before any work.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Option, ProgramCommand, ProgramError, ProgramUsageError } from "@mc/shared/program";

/** A file-system failure as one line: "not a directory, open '/x/y'" rather than a stack. */
export function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0]?.replace(/^E[A-Z]+: /, "") ?? message;
}

/** A command that reads the data folder, the store, the signing key or NATS. */
export abstract class DeploymentCommand extends ProgramCommand {
  dataDirFlag = Option.String("--data-dir");
  storeFlag = Option.String("--store");
  keyFlag = Option.String("--key");
  natsFlag = Option.String("--nats");

  /** The command's name, as its messages start. */
  protected get name(): string {
    return this.path.join(" ");
  }

  // DATA_DIR is honoured as everywhere else: nothing is read from or left in ./.data when it names another folder.
  protected get dataDir(): string {
    return resolve(this.dataDirFlag ?? (process.env.DATA_DIR || ".data"));
  }

  protected get storeSpec(): string {
    return this.storeFlag ?? (process.env.RELEASES_STORE || resolve(this.dataDir, "releases"));
  }

  protected get keyFile(): string {
    return resolve(this.keyFlag ?? (process.env.RELEASES_SIGNING_KEY || resolve(this.dataDir, "minisign.key")));
  }

  protected get natsUrl(): string | undefined {
    return this.natsFlag ?? process.env.NATS_URL;
  }
}

/** A flag the command cannot do without: its absence is a usage mistake. */
export function need(command: string, flag: string, value: string | undefined): string {
  if (value === undefined || value === "") throw new ProgramUsageError(`${command}: ${flag} is required`);
  return value;
}

/** A folder the command writes into must exist: say so before any work, with the flag that named it. */
export async function needFolder(command: string, flag: string, dir: string): Promise<void> {
  const found = await stat(dir).catch((err: unknown) => {
    throw new ProgramError(`${command}: ${flag} ${dir}: ${oneLine(err)}`);
  });
  if (!found.isDirectory()) throw new ProgramError(`${command}: ${flag} ${dir}: not a directory`);
}

export function needHttpUrl(command: string, flag: string, value: string | undefined): string {
  const url = need(command, flag, value).replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(url)) throw new ProgramError(`${command}: ${flag} must be an http(s) URL, got '${url}'`);
  return url;
}
