// `node --import tsx scripts/cluster/init-secrets.ts [--ca-key-dir D] DIR NAME[=SAN,SAN…]…`:
// the compose init service. Creates the CA, one certificate per KMS node and
// the shared HSM key in DIR unless they exist (safe to run on every `up`).
// The CA key goes to --ca-key-dir, a folder the nodes do not mount.
import { ensureSecrets, type NodeCertSpec } from "./secrets.js";

const argv = process.argv.slice(2);
const caKeyAt = argv.indexOf("--ca-key-dir");
const caKeyDir = caKeyAt >= 0 ? argv.splice(caKeyAt, 2)[1] : undefined;
const [dir, ...specs] = argv;
if (!dir || specs.length === 0 || (caKeyAt >= 0 && !caKeyDir)) {
  process.stderr.write("usage: init-secrets.ts [--ca-key-dir DIR] DIR NAME[=SAN,SAN...]...\n");
  process.exit(2);
}
const nodes: NodeCertSpec[] = specs.map((s) => {
  const [name = "", sans] = s.split("=");
  return { name, hosts: sans ? sans.split(",") : [name] };
});
try {
  const { created } = await ensureSecrets(dir, nodes, { apiKey: false, ...(caKeyDir ? { caKeyDir } : {}) });
  process.stdout.write(created.length > 0 ? `created ${created.join(", ")}\n` : `secrets in ${dir} already complete\n`);
} catch (err) {
  process.stderr.write(`init-secrets: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
