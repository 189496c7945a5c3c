// The KMS client library, loaded lazily by `mc admin kms` (its X.509 code is
// large). The bundle builds this file as its own entry, dist/kms.cjs, and
// keeps the import in dist/mc.cjs external (scripts/build.mjs).
export { createKmsClient, KmsClientError, type KmsClient } from "../../../services/kms/src/client/kms-client.js";
export { clientCertificateOf, identityOfSeed, newApiKey, parseApiKey } from "../../../services/kms/src/adapters/tls/api-key.js";
export { clusterView, clusterViewLines, type ClusterView, type ClusterViewNode } from "../../../services/kms/src/cli/cluster-view.js";
