import { access as accessFile, constants, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Command, Option } from "clipanion";
import type { Client } from "minio";
import { BaseCommand } from "../../runtime/base-command.js";
import { aliasNamePattern, fromConfig } from "../../config/aliases.js";
import type { AliasConfig } from "../../config/config-file.js";
import { writeConfig } from "../../config/config-file.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, s3Code, usageError } from "../../core/errors.js";
import { createLineReader, createTtyAsk } from "../../helpers/prompt.js";
import { createS3Client } from "../../storage/s3/s3-client.js";
import { fetchPeerCertificate, isUnknownAuthority } from "../../helpers/trust.js";

/** A request whose error answer has an XML body, so a wrong secret shows up as SignatureDoesNotMatch (a HEAD 403 has none). */
async function probe(client: Client): Promise<void> {
  const bucket = `probe-bucket-sign-${Math.random().toString(36).slice(2, 12)}`;
  try {
    const res = await client.makeRequestAsync({ method: "GET", bucketName: bucket, query: "location" }, "", [200], "us-east-1");
    res.resume();
  } catch (err) {
    if (["NoSuchBucket", "AccessDenied"].includes(s3Code(err))) return;
    throw err;
  }
}

export class AliasSetCommand extends BaseCommand {
  static override paths = [["alias", "set"], ["alias", "s"]];
  static override usage = Command.Usage({
    category: "Alias commands",
    description: "set a new alias to configuration file",
    examples: [
      ["Add an alias with its keys.", "$0 alias set myalias https://minio.example.net:9000 ACCESS_KEY SECRET_KEY"],
      ["Add an alias and type the keys at the prompts (they stay out of the shell history).", "$0 alias set myalias http://127.0.0.1:9000"],
      ["Add an alias for a server that only takes path-style requests, with SigV4.", "$0 alias set myalias http://10.0.0.5:7480 ACCESS_KEY SECRET_KEY --api S3v4 --path on"],
      ["Add a KMS alias with its API key.", "$0 alias set mykms https://kms.example.net:7373 --api-key k1:kKBeBlOXcJR6NfAo4nIN3OPOZCP0KVTfh8Xee8OI5ho"],
      ["Add a KMS alias that authenticates with a client certificate.", "$0 alias set mykms https://kms.example.net:7373 --client-cert ./client.crt --client-key ./client.key"],
    ],
  });
  api = Option.String("--api", { description: "API signature: S3v4 or S3v2" });
  pathStyle = Option.String("--path", "auto", { description: "bucket path lookup: auto, on, off" });
  apiKey = Option.String("--api-key", { description: "API key of a KMS alias (no S3 keys, no probe)" });
  clientCert = Option.String("--client-cert", { description: "client certificate (PEM) of a KMS alias authenticated by mTLS, with --client-key" });
  clientKey = Option.String("--client-key", { description: "private key (PEM) of --client-cert" });
  args = Option.Rest({ name: "ALIAS URL [ACCESSKEY [SECRETKEY]]" });

  async run(ctx: McContext): Promise<void> {
    const [rawName, rawUrl, access, secret, ...extra] = this.args;
    if (rawName === undefined || rawUrl === undefined || extra.length > 0) throw usageError("alias set needs ALIAS URL [ACCESSKEY [SECRETKEY]].");
    const name = rawName.replace(/\/+$/, "");
    const url = rawUrl.replace(/\/+$/, "");
    if (!aliasNamePattern.test(name)) throw mcError(`Invalid alias name \`${rawName}\`.`, new Error("Alias must start with a letter and contain only letters, digits, - and _"), "invalid_argument");
    if (!/^https?:\/\/[^/]+/.test(url)) throw mcError(`Invalid URL \`${rawUrl}\`.`, new Error("URL must start with http:// or https://"), "invalid_argument");
    if (!["auto", "on", "off", "dns"].includes(this.pathStyle)) throw usageError(`unrecognized bucket path style \`${this.pathStyle}\`.`);
    const apiFlag = this.api?.toLowerCase();
    if (apiFlag !== undefined && !["s3v4", "s3v2"].includes(apiFlag)) throw usageError(`unrecognized API signature \`${this.api}\`.`);

    let alias: AliasConfig;
    if (this.apiKey !== undefined && this.clientCert !== undefined) throw usageError("a KMS alias takes --api-key or --client-cert and --client-key, not both.");
    if ((this.clientCert === undefined) !== (this.clientKey === undefined)) throw usageError("--client-cert and --client-key go together.");
    if (this.apiKey !== undefined) {
      alias = { url, accessKey: "", secretKey: "", api: "", path: this.pathStyle, apiKey: this.apiKey };
    } else if (this.clientCert !== undefined && this.clientKey !== undefined) {
      // A KMS alias with an mTLS identity: the files' paths are stored (absolute), never their contents.
      const [clientCert, clientKey] = [resolve(this.clientCert), resolve(this.clientKey)];
      for (const f of [clientCert, clientKey]) {
        await accessFile(f, constants.R_OK).catch((err: unknown) => {
          throw mcError(`Unable to read \`${f}\`.`, err, "invalid_argument");
        });
      }
      alias = { url, accessKey: "", secretKey: "", api: "", path: this.pathStyle, clientCert, clientKey };
    } else {
      let accessKey = access;
      let secretKey = secret;
      const stdin = process.stdin;
      if (accessKey === undefined || secretKey === undefined) {
        if (stdin.isTTY) {
          const tty = createTtyAsk(stdin, process.stdout);
          try {
            accessKey ??= await tty.ask("Enter Access Key: ", false);
            secretKey ??= await tty.ask("Enter Secret Key: ", true);
          } finally {
            tty.close();
          }
        } else {
          const next = createLineReader(stdin);
          accessKey ??= (await next()).trim();
          secretKey ??= (await next()).trim();
          stdin.pause();
          stdin.unref?.();
        }
      }
      alias = { url, accessKey, secretKey, api: this.api ?? "s3v4", path: this.pathStyle };
      await this.check(ctx, name, alias);
    }
    const file = ctx.config.file;
    const previous = file.aliases[name];
    // Keep fields we do not know of when an alias is updated.
    file.aliases[name] = { ...(previous ?? {}), ...alias };
    if (alias.apiKey === undefined) delete file.aliases[name].apiKey;
    if (alias["clientCert"] === undefined) {
      delete file.aliases[name]["clientCert"];
      delete file.aliases[name]["clientKey"];
    }
    await writeConfig(ctx.config.dir, file);
    const shown: Record<string, unknown> = { status: "success", alias: name, URL: url };
    if (alias.apiKey !== undefined) Object.assign(shown, { path: alias.path, apiKey: "k1:****" });
    else if (alias["clientCert"] !== undefined) Object.assign(shown, { path: alias.path, clientCert: alias["clientCert"], clientKey: alias["clientKey"] });
    else Object.assign(shown, { accessKey: alias.accessKey, secretKey: alias.secretKey, api: alias.api, path: alias.path });
    ctx.output.result(shown, `Added \`${name}\` successfully.`);
  }

  /** Checks the keys; on an untrusted self-signed certificate asks (on a terminal) whether to trust it. */
  private async check(ctx: McContext, name: string, alias: AliasConfig): Promise<void> {
    const resolved = fromConfig(name, alias, ctx.config.path);
    const settings = { certsDir: join(ctx.config.dir, "certs"), insecure: ctx.settings.insecure };
    try {
      await probe(createS3Client(resolved, settings));
      return;
    } catch (err) {
      const interactive = process.stdin.isTTY && process.stdout.isTTY && !ctx.settings.insecure && !ctx.settings.json;
      if (!isUnknownAuthority(err) || !interactive) throw mcError("Unable to initialize new alias from the provided credentials.", err);
      const url = new URL(alias.url);
      const peer = await fetchPeerCertificate(url.hostname, Number(url.port || 443));
      if (!peer.selfSigned) throw mcError("Unable to initialize new alias from the provided credentials.", err);
      process.stdout.write(`Fingerprint of ${name} public key: ${peer.fingerprint}\n`);
      const tty = createTtyAsk(process.stdin, process.stdout);
      const answer = (await tty.ask("Confirm public key y/N: ", false).finally(() => tty.close())).trim().toLowerCase();
      if (answer !== "y" && answer !== "yes") throw mcError("Unable to initialize new alias from the provided credentials.", err);
      await writeFile(join(ctx.config.dir, "certs", "CAs", `${name}.crt`), peer.pem, { mode: 0o600 });
    }
    try {
      await probe(createS3Client(resolved, settings));
    } catch (err) {
      throw mcError("Unable to initialize new alias from the provided credentials.", err);
    }
  }
}
