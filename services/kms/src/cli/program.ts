// The `kms` command line: its usage and its commands, run by the project's
// one argument parser (@mc/shared/program).
import type { Program } from "@mc/shared/program";
import { ClusterCommand } from "./cluster-command.js";
import { ApiKeyNewCommand, HsmNewCommand, IdentityOfCommand } from "./key-commands.js";
import { RecoverCommand } from "./recover.js";
import { ServerCommand } from "./server-command.js";

export const usage = `Usage: kms <command>

Key management service: a TLS-only node on port 7373 with enclaves,
identities, policies and keys.

Commands:
  server --config FILE      run a KMS node from a YAML configuration
  server --dev [--address HOST:PORT]
                            run an ephemeral development node (prints its root API key)
  hsm new                   print a new software HSM key (hsm:aes256:...)
  apikey new                print a new API key and its identity
  identity of CERT.pem      print the identity of a certificate
  cluster add HOST:PORT     add a (fresh, running) node to the cluster
  cluster remove HOST:PORT  remove a node from the cluster
  cluster status            members, leader, term, indexes, lag, round trips,
                            as the leader sees them (asked of it from any node)
      cluster commands take --server HOST:PORT (default 127.0.0.1:7373),
      --api-key KEY (or KMS_API_KEY) and --ca FILE (or KMS_CA)
  recover --config FILE     check a stopped node's data directory (or --data DIR);
                            --truncate-at N cuts its log, --move-aside DIR empties it
                            (kms recover --help)
`;

export const kmsProgram: Program = {
  name: "kms",
  usage,
  commands: [ServerCommand, HsmNewCommand, ApiKeyNewCommand, IdentityOfCommand, ClusterCommand, RecoverCommand],
};
