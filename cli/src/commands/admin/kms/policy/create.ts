import { readFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { mcError, usageError } from "../../../../core/errors.js";
import { readStdinText } from "../../../../core/stdin.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** A policy file: `{"allow":[…],"deny":[…]}` (KES's policy JSON). */
function parsePolicy(text: string, file: string): { allow: string[]; deny: string[] } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw mcError(`Policy file \`${file}\` is not valid JSON.`, err, "invalid_argument");
  }
  const list = (k: string): string[] => {
    const x = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined;
    if (x === undefined) return [];
    if (!Array.isArray(x) || x.some((p) => typeof p !== "string")) throw mcError(`Policy file \`${file}\`: "${k}" must be a list of paths.`, undefined, "invalid_argument");
    return x as string[];
  };
  return { allow: list("allow"), deny: list("deny") };
}

/** `mc admin kms policy create ALIAS NAME [FILE] [--allow PATH]… [--deny PATH]…`: `/v1/policy/create/<name>`. */
export class AdminKmsPolicyCreateCommand extends KmsCommand {
  static override paths = [["admin", "kms", "policy", "create"], ["admin", "kms", "policy", "add"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "create a KMS policy from a file or from --allow/--deny paths",
    details: "FILE holds {\"allow\":[\"/v1/key/generate/app-*\"],\"deny\":[]} (`-` reads standard input). Paths are REST paths with `*` patterns; deny wins over allow.",
    examples: [
      ["Create a policy that may only generate and decrypt data keys of app-* keys.", "$0 admin kms policy create mykms app --allow \"/v1/key/generate/app-*\" --allow \"/v1/key/decrypt/app-*\""],
      ["Create a policy from a file.", "$0 admin kms policy create mykms app ./app-policy.json"],
      ["Create one from standard input that denies key deletion.", "echo '{\"allow\":[\"/v1/key/*\"],\"deny\":[\"/v1/key/delete/*\"]}' | $0 admin kms policy create mykms no-delete -"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME [FILE]" });
  allow = Option.Array("--allow", { description: "a path pattern the policy allows (repeatable)" });
  deny = Option.Array("--deny", { description: "a path pattern the policy denies (repeatable)" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = "", file] = this.positional(this.args, "ALIAS, NAME and a FILE or --allow/--deny paths", 2, 1);
    const flags = { allow: this.allow ?? [], deny: this.deny ?? [] };
    if (file !== undefined && flags.allow.length + flags.deny.length > 0) throw usageError("give the policy as FILE or as --allow/--deny, not both.");
    if (file === undefined && flags.allow.length + flags.deny.length === 0) throw usageError("the policy needs a FILE or at least one --allow or --deny path.");
    const policy = file === undefined ? flags : parsePolicy(file === "-" ? await readStdinText() : await readFile(file, "utf8").catch((err: unknown) => {
      throw mcError(`Unable to read policy file \`${file}\`.`, err, "invalid_argument");
    }), file);
    await this.withKms(ctx, aliasName, `Failed to create policy \`${name}\`.`, ({ client }) => client.call("POST", `/v1/policy/create/${seg(name)}`, policy));
    ctx.output.result({ status: "success", policy: name, allow: policy.allow, deny: policy.deny }, `Created policy \`${name}\` successfully`);
    return 0;
  }
}
