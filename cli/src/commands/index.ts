import { DuCommand } from "./du.js";
import { DiffCommand } from "./diff.js";
import { FindCommand } from "./find.js";
import { MirrorCommand } from "./mirror.js";
import { OdCommand } from "./od.js";
import { PingCommand } from "./ping.js";
import { TreeCommand } from "./tree.js";
import { ShareDownloadCommand } from "./share/download.js";
import { ShareUploadCommand } from "./share/upload.js";
import { ShareListCommand } from "./share/list.js";
import { AliasListCommand } from "./alias/list.js";
import { AliasRemoveCommand } from "./alias/remove.js";
import { AliasSetCommand } from "./alias/set.js";
import { CatCommand } from "./cat.js";
import { CpCommand } from "./cp.js";
import { GetCommand } from "./get.js";
import { HeadCommand } from "./head.js";
import { LsCommand } from "./ls.js";
import { MbCommand } from "./mb.js";
import { MvCommand } from "./mv.js";
import { PipeCommand } from "./pipe.js";
import { PutCommand } from "./put.js";
import { RbCommand } from "./rb.js";
import { RmCommand } from "./rm.js";
import { StatCommand } from "./stat.js";
import { UpdateCommand } from "./update.js";
import { AdminInfoCommand } from "./admin/info.js";
import { AdminKmsClusterAddCommand, AdminKmsClusterRemoveCommand } from "./admin/kms-cluster.js";
import { AdminKmsIdentityInfoCommand } from "./admin/kms-identity-info.js";
import { AdminKmsKeyCreateCommand } from "./admin/kms-key-create.js";
import { AdminKmsKeyListCommand } from "./admin/kms-key-list.js";
import { AdminKmsKeyStatusCommand } from "./admin/kms-key-status.js";
import { AdminKmsEnclaveCreateCommand } from "./admin/kms-enclave-create.js";
import { AdminKmsEnclaveDeleteCommand } from "./admin/kms-enclave-delete.js";
import { AdminKmsEnclaveInfoCommand } from "./admin/kms-enclave-info.js";
import { AdminKmsEnclaveListCommand } from "./admin/kms-enclave-list.js";
import { AdminKmsIdentityCreateCommand } from "./admin/kms-identity-create.js";
import { AdminKmsIdentityDeleteCommand } from "./admin/kms-identity-delete.js";
import { AdminKmsIdentityListCommand } from "./admin/kms-identity-list.js";
import { AdminKmsKeyDeleteCommand } from "./admin/kms-key-delete.js";
import { AdminKmsKeyImportCommand } from "./admin/kms-key-import.js";
import { AdminKmsKeyInfoCommand } from "./admin/kms-key-info.js";
import { AdminKmsKeyRotateCommand } from "./admin/kms-key-rotate.js";
import { AdminKmsLogCommand } from "./admin/kms-log.js";
import { AdminKmsMetricsCommand } from "./admin/kms-metrics.js";
import { AdminKmsPolicyAssignCommand, AdminKmsPolicyUnassignCommand } from "./admin/kms-policy-assign.js";
import { AdminKmsPolicyCreateCommand } from "./admin/kms-policy-create.js";
import { AdminKmsPolicyDeleteCommand } from "./admin/kms-policy-delete.js";
import { AdminKmsPolicyInfoCommand } from "./admin/kms-policy-info.js";
import { AdminKmsPolicyListCommand } from "./admin/kms-policy-list.js";
import { AdminKmsPolicyShowCommand } from "./admin/kms-policy-show.js";
import { AdminKmsStatusCommand } from "./admin/kms-status.js";
import { bucketConfigCommands } from "./bucket-config/index.js";
import { versionCommands } from "./versions/index.js";
import { minioCommands } from "../minio-admin/command-list.js";

export const commands = [
  AliasSetCommand,
  AliasListCommand,
  AliasRemoveCommand,
  CatCommand,
  CpCommand,
  GetCommand,
  HeadCommand,
  LsCommand,
  MbCommand,
  MvCommand,
  PipeCommand,
  PutCommand,
  RbCommand,
  RmCommand,
  StatCommand,
  DuCommand,
  DiffCommand,
  FindCommand,
  MirrorCommand,
  OdCommand,
  PingCommand,
  TreeCommand,
  ShareDownloadCommand,
  ShareUploadCommand,
  ShareListCommand,
  AdminInfoCommand,
  AdminKmsKeyCreateCommand,
  AdminKmsKeyListCommand,
  AdminKmsKeyStatusCommand,
  AdminKmsIdentityInfoCommand,
  AdminKmsEnclaveCreateCommand,
  AdminKmsEnclaveDeleteCommand,
  AdminKmsEnclaveInfoCommand,
  AdminKmsEnclaveListCommand,
  AdminKmsIdentityCreateCommand,
  AdminKmsIdentityDeleteCommand,
  AdminKmsIdentityListCommand,
  AdminKmsKeyDeleteCommand,
  AdminKmsKeyImportCommand,
  AdminKmsKeyInfoCommand,
  AdminKmsKeyRotateCommand,
  AdminKmsLogCommand,
  AdminKmsMetricsCommand,
  AdminKmsPolicyAssignCommand,
  AdminKmsPolicyUnassignCommand,
  AdminKmsPolicyCreateCommand,
  AdminKmsPolicyDeleteCommand,
  AdminKmsPolicyInfoCommand,
  AdminKmsPolicyListCommand,
  AdminKmsPolicyShowCommand,
  AdminKmsStatusCommand,
  AdminKmsClusterAddCommand,
  AdminKmsClusterRemoveCommand,
  UpdateCommand,
  ...versionCommands,
  ...bucketConfigCommands,
  ...minioCommands,
];
