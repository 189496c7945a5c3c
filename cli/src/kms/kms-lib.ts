// The KMS client library, loaded lazily by `mc admin kms` (its X.509 code is
// large). The bundle builds this file as its own entry, dist/kms.cjs, and
// keeps the import in dist/mc.cjs external (scripts/build.mjs).
export { createKmsClient, KmsClientError, type KmsClient } from "@mc/kms/client";
export { clientCertificateOf, identityOfSeed, newApiKey, parseApiKey } from "@mc/kms/client";
export { clusterView, clusterViewLines, type ClusterView, type ClusterViewNode } from "@mc/kms/client";
