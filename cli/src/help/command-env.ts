// The ENVIRONMENT VARIABLES a command's help lists, as upstream's templates
// list them: only variables this mc reads, tied to a flag the command has or
// to the command itself. Global ones (MC_CONFIG_DIR, MC_JSON, …) are shown
// beside their flags under GLOBAL FLAGS instead.
import type { CommandHelp } from "./command-help.js";

const encryption: readonly [string, string] = ["MC_ENC_KMS", "KMS encryption keys in the form alias/prefix=KEYID, added to those of --enc-kms"];
const multipartSize: readonly [string, string] = ["MC_UPLOAD_MULTIPART_SIZE", "size of each part of a multipart upload (default 16MiB, at least 5MiB)"];
const multipartThreads: readonly [string, string] = ["MC_UPLOAD_MULTIPART_THREADS", "parts of one object uploaded in parallel (default 4)"];

/** Variables of a whole command, by its path. */
const byCommand: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  cp: [multipartSize, multipartThreads],
  mv: [multipartSize, multipartThreads],
  mirror: [multipartSize, multipartThreads],
  put: [multipartSize, multipartThreads],
  pipe: [multipartSize],
  update: [
    ["MC_UPDATE_URL", "the release folder to update from (default: the public release service)"],
    ["MC_UPDATE_MINISIGN_PUBKEY", "a minisign public key, or a file holding it, that replaces the key this build carries"],
  ],
  "alias set": [["MC_HOST_<alias>", "defines an alias without the configuration file: https://ACCESS:SECRET[:TOKEN]@host[:port]"]],
  "alias list": [
    ["MC_HOST_<alias>", "aliases defined in the environment are listed with `src: env`"],
    ["MC_CONFIG_ENV_FILE", "a file of MC_HOST_<alias>=URL lines, read after MC_HOST_<alias> and before config.json"],
  ],
};

/** `[NAME, what it does]` pairs for a command's ENVIRONMENT VARIABLES section; empty for most commands. */
export function commandEnv(help: CommandHelp): (readonly [string, string])[] {
  const out = [...(byCommand[help.path.join(" ")] ?? [])];
  if (help.flags.some((f) => f.names.some((n) => n.startsWith("--enc-")))) out.unshift(encryption);
  return out;
}
