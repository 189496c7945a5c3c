import { readFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import { aliasNamePattern } from "../../config/aliases.js";
import { writeConfig, type AliasConfig } from "../../config/config-file.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { readStdinText } from "../../core/stdin.js";

const known = ["url", "accessKey", "secretKey", "sessionToken", "api", "path", "license", "apiKey"];

const invalid = (what: string): Error => mcError(`Unable to import credentials: ${what}.`, undefined, "invalid_argument");

/** Upstream's checks of an imported entry (cmd/alias-import.go), plus: unknown fields are refused rather than dropped. */
function credentials(text: string): AliasConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw mcError("Unable to parse input credentials: not valid JSON.", err, "invalid_argument");
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw invalid("the JSON is not an object");
  const fields = doc as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (!known.includes(key)) throw invalid(`unknown field \`${key}\``);
    if (typeof value !== "string") throw invalid(`\`${key}\` must be text`);
  }
  const get = (key: string): string => (fields[key] as string | undefined) ?? "";
  const url = get("url").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/\s]+$/.test(url) || !URL.canParse(url)) throw invalid(`invalid URL \`${get("url")}\``);
  const accessKey = get("accessKey");
  const secretKey = get("secretKey");
  if (accessKey !== "" && accessKey.length < 3) throw invalid(`invalid access key \`${accessKey}\` (at least 3 characters)`);
  // The secret itself never goes into a message.
  if (secretKey !== "" && secretKey.length < 8) throw invalid("invalid secret key (at least 8 characters)");
  const api = get("api");
  if (api !== "" && !["s3v4", "s3v2"].includes(api.toLowerCase())) throw invalid(`unrecognized API signature \`${api}\`; valid options are S3v4, S3v2`);
  const path = get("path") || "auto";
  if (!["auto", "on", "off", "dns"].includes(path)) throw invalid(`unrecognized path value \`${path}\`; valid options are auto, on, off`);
  const alias: AliasConfig = { url, accessKey, secretKey, api: api || "S3v4", path };
  for (const key of ["sessionToken", "license", "apiKey"]) if (get(key) !== "") alias[key] = get(key);
  return alias;
}

export class AliasImportCommand extends BaseCommand {
  static override paths = [["alias", "import"], ["alias", "i"]];
  static override usage = Command.Usage({
    category: "Alias commands",
    description: "import configuration info to configuration file from a JSON formatted string",
    details: "The credentials are JSON as `alias export` prints them: {\"url\":\"http://localhost:9000\",\"accessKey\":\"…\",\"secretKey\":\"…\",\"api\":\"s3v4\",\"path\":\"auto\"}; without a file they are read from standard input.",
    examples: [
      ["Import an alias from a credentials file.", "$0 alias import myalias ./credentials.json"],
      ["Import it from standard input.", "cat credentials.json | $0 alias import myalias"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CREDENTIALS_FILE]" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 1 || this.args.length > 2) throw usageError("alias import needs ALIAS and, unless they come on standard input, a CREDENTIALS_FILE.");
    const [raw = "", file] = this.args;
    const name = raw.replace(/\/+$/, "");
    if (!aliasNamePattern.test(name)) throw mcError(`Invalid alias name \`${raw}\`.`, new Error("Alias must start with a letter and contain only letters, digits, - and _"), "invalid_argument");
    let text: string;
    try {
      text = file === undefined || file === "-" ? await readStdinText() : await readFile(file, "utf8");
    } catch (err) {
      throw mcError(`Unable to read credentials file \`${file ?? "-"}\`.`, err, "invalid_argument");
    }
    const alias = credentials(text);
    ctx.config.file.aliases[name] = alias;
    await writeConfig(ctx.config.dir, ctx.config.file);
    ctx.output.result({ status: "success", alias: name, URL: alias.url, accessKey: alias.accessKey, secretKey: alias.secretKey, api: alias.api, path: alias.path }, `Imported \`${name}\` successfully.`);
  }
}
