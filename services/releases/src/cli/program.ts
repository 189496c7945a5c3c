// The `releases` command line: its usage and its commands, run by the
// project's one argument parser (@mc/shared/program).
import type { Program } from "@mc/shared/program";
import { InitCommand, KeygenCommand } from "./key-commands.js";
import { PublishCommand } from "./publish-command.js";
import { SbomCommand } from "./sbom-cli-command.js";
import { ServeCommand } from "./serve-command.js";

export const usage = `Usage: releases <command> [options]

Release download service: publishes releases into a deployment and serves the
catalog to gateways over NATS.

Commands:
  publish   --product P --component C [--release ID] --from DIR [--new-product] TARGET
            validate, hash, sign and publish a release directory:
              DIR/<os>-<arch>/<component>[.exe], release-notes-<id>.md,
              sbom-<id>.cyclonedx.json, sbom-<id>.spdx.json, gomod-<id>.txt
            (the id is read from the document names when --release is absent).
            TARGET names the deployment once:
              --nats URL        a running deployment: its release service reads DIR,
                                signs with its own key and writes its own store
              (none)            the embedded default in --data-dir / $DATA_DIR / .data,
                                which \`npm start\` must be serving
              --offline [--store DIR|s3://B] [--key FILE]
                                write into a store no running service serves
            An unknown product is refused unless --new-product. Live on every
            gateway of the deployment within 2 s.
  sbom      --from gomod.txt --licenses licenses.json --component C --release ID [--out DIR]
            write both SBOMs from a Go modules list and a JSON map of module path ->
            SPDX license id or expression (format: releases sbom --help)
  keygen    [--key FILE]       create the release signing key (mode 0600), print its public key
  init      --store DIR --key FILE
            create the signing key if missing and publish the sample catalog of the
            embedded default into the store (the cluster launcher and compose run it)
  serve     --nats URL --store DIR --base-url URL [--key FILE]
            serve ReleaseService (and, with --key, publishing) on NATS; instances
            share the load and announce every catalog change, whoever made it

--store is a directory or s3://bucket[/prefix] (with RELEASES_S3_ENDPOINT,
RELEASES_S3_ACCESS_KEY, RELEASES_S3_SECRET_KEY, RELEASES_S3_REGION).
Defaults: --data-dir $DATA_DIR or .data; --store $RELEASES_STORE or
DATA_DIR/releases; --key $RELEASES_SIGNING_KEY or DATA_DIR/minisign.key;
--nats $NATS_URL.
`;

export const releasesProgram: Program = {
  name: "releases",
  usage,
  commands: [PublishCommand, SbomCommand, KeygenCommand, InitCommand, ServeCommand],
};
