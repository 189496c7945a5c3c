import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { saveShares } from "../../helpers/share-store.js";
import { expiryText } from "../../util/humanize.js";
import { parseExpiry } from "../../helpers/share-expiry.js";

/** One word for a POSIX shell: as it is when nothing in it is special to the shell, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]*$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

export class ShareUploadCommand extends BaseCommand {
  static override paths = [["share", "upload"]];
  static override usage = Command.Usage({
    category: "Share commands",
    description: "generate 'curl' command to upload objects without requiring access/secret keys",
    examples: [
      ["Let someone upload one object without keys, for 7 days.", "$0 share upload myalias/mybucket/incoming/report.pdf"],
      ["Let someone upload anything under a folder, for 12 hours.", "$0 share upload --recursive --expire 12h myalias/mybucket/incoming/"],
      ["Allow only images.", "$0 share upload --content-type \"image/jpeg\" myalias/mybucket/photos/party.jpg"],
      ["Print the curl command as JSON.", "$0 share upload --json myalias/mybucket/incoming/data.csv"],
    ],
  });
  recursive = Option.Boolean("-r,--recursive", false, { description: "allow uploads under the prefix" });
  expire = Option.String("-E,--expire", { description: "set expiry in NN[h|m|s] (default 168h)" });
  contentType = Option.String("-T,--content-type", { description: "specify a content-type to allow" });
  targets = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.targets.length !== 1) throw usageError("share upload needs one TARGET.");
    const ms = parseExpiry(this.expire);
    const loc = ctx.locate(this.targets[0] ?? "");
    if (loc.kind !== "s3" || loc.bucket === "") throw usageError("share upload needs alias/bucket/object.");
    const policy = loc.client.newPostPolicy();
    policy.setBucket(loc.bucket);
    if (this.recursive) policy.setKeyStartsWith(loc.key);
    else policy.setKey(loc.key);
    policy.setExpires(new Date(Date.now() + ms));
    if (this.contentType) policy.setContentType(this.contentType);
    const presigned = await loc.client.presignedPostPolicy(policy);
    // A form POST goes to the bucket's root `/` (minio-go's URL); the SDK leaves the slash out.
    const postURL = presigned.postURL.endsWith("/") ? presigned.postURL : `${presigned.postURL}/`;
    const formData = presigned.formData;
    const fields = Object.entries(formData).filter(([k]) => k !== "key");
    // The key as a shell reads it back (a space or a quote in it broke the pasted command), and as
    // curl reads it back: a value starting with @ or < would be read from a local file.
    const key = `${shellWord(loc.key)}${this.recursive ? "<NAME>" : ""}`;
    const keyFlag = /^[@<]/.test(loc.key) ? "--form-string" : "-F";
    const share = `curl ${postURL} ${fields.map(([k, v]) => `-F ${shellWord(`${k}=${v}`)}`).join(" ")} ${keyFlag} key=${key} -F file=@<FILE>`;
    const url = `${loc.alias.url}/${loc.bucket}/${loc.key}`;
    ctx.output.result(
      { status: "success", url, share, timeLeft: ms * 1e6, ...(this.contentType ? { contentType: this.contentType } : {}) },
      `URL: ${url}\nExpire: ${expiryText(ms)}\nShare: ${share}`,
    );
    await saveShares(ctx.config.dir, "upload", { [share]: { share: url, versionID: "", date: new Date().toISOString(), expiry: ms * 1e6, ...(this.contentType ? { contentType: this.contentType } : {}) } });
  }
}
