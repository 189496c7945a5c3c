// `@mc/kms/client`: what a KMS client (`mc admin kms`) needs and nothing of
// the server: the client over the TLS edge, API keys and the client
// certificates derived from them, and the cluster view `kms cluster status`
// and `mc admin kms cluster status` print. It loads node:https, node:crypto
// and the X.509 library, never the edge, the HSM, consensus or NATS (the
// import-graph check in tests/checks keeps the cli from reaching further).
export { createKmsClient, KmsClientError } from "./kms-client.js";
export type { KmsClient } from "./kms-client.js";
export { clientCertificateOf, identityOfSeed, newApiKey, parseApiKey } from "../adapters/tls/api-key.js";
export { clusterView, clusterViewLines } from "../cli/cluster-view.js";
export type { ClusterView, ClusterViewNode } from "../cli/cluster-view.js";
