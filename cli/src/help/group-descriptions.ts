// One line per command group, upstream's wording where upstream has the group
// (its cli.Command Usage); a group of ours says what it holds.
export const groupDescriptions: Readonly<Record<string, string>> = {
  admin: "manage MinIO servers",
  "admin kms": "perform KMS management operations",
  "admin kms key": "manage KMS keys",
  "admin kms identity": "manage KMS identities and their API keys",
  "admin kms policy": "manage KMS policies",
  "admin kms enclave": "manage KMS enclaves",
  "admin kms cluster": "manage the members of a KMS cluster",
  alias: "manage server credentials in configuration file",
  anonymous: "manage anonymous access to buckets and objects",
  cors: "manage bucket CORS configuration",
  encrypt: "manage bucket encryption config",
  event: "manage object notifications",
  ilm: "manage bucket lifecycle",
  "ilm rule": "manage bucket lifecycle rules",
  legalhold: "manage legal hold for object(s)",
  quota: "manage bucket quota",
  retention: "set retention for object(s)",
  share: "generate URL for temporary access to an object",
  tag: "manage tags for bucket and object(s)",
  version: "manage bucket versioning",
};
