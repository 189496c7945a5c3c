import { Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { RuleFlags } from "../storage/s3/bucket/lifecycle-rule.js";

/** The rule flags `ilm rule add` and `ilm rule edit` share (upstream names). */
export abstract class IlmRuleFlagsCommand extends BaseCommand {
  prefix = Option.String("--prefix", { description: "object prefix the rule applies to" });
  tags = Option.String("--tags", { description: "object tags the rule applies to ('k1=v1&k2=v2')" });
  expireDays = Option.String("--expire-days", { description: "number of days after which objects expire" });
  expireDate = Option.String("--expire-date", { description: "date (YYYY-MM-DD) after which objects expire" });
  expireDeleteMarker = Option.Boolean("--expire-delete-marker,--expired-object-delete-marker", { description: "remove delete markers with no noncurrent versions" });
  expireAllVersions = Option.Boolean("--expire-all-object-versions", { description: "expire all versions of an object with --expire-days (MinIO only)" });
  noncurrentExpireDays = Option.String("--noncurrent-expire-days,--noncurrentversion-expiration-days", { description: "days after which noncurrent versions expire" });
  noncurrentExpireNewer = Option.String("--noncurrent-expire-newer", { description: "number of newer noncurrent versions to keep" });
  transitionDays = Option.String("--transition-days", { description: "days after which objects move to the storage class" });
  transitionDate = Option.String("--transition-date", { description: "date (YYYY-MM-DD) after which objects move to the storage class" });
  storageClass = Option.String("--storage-class,--transition-tier", { description: "storage class (tier) for --transition-days/--transition-date" });
  noncurrentTransitionDays = Option.String("--noncurrent-transition-days", { description: "days after which noncurrent versions move to a storage class" });
  noncurrentStorageClass = Option.String("--noncurrent-transition-storage-class,--noncurrent-transition-tier", { description: "storage class (tier) for noncurrent versions" });
  disable = Option.Boolean("--disable", { description: "store the rule disabled (edit: --no-disable enables it again)" });
  sizeLt = Option.String("--size-lt", { description: "match objects smaller than this size (e.g. 10MiB)" });
  sizeGt = Option.String("--size-gt", { description: "match objects larger than this size (e.g. 1MiB)" });

  protected ruleFlags(): RuleFlags {
    return {
      prefix: this.prefix,
      tags: this.tags,
      expireDays: this.expireDays,
      expireDate: this.expireDate,
      expireDeleteMarker: this.expireDeleteMarker,
      expireAllVersions: this.expireAllVersions,
      noncurrentExpireDays: this.noncurrentExpireDays,
      noncurrentExpireNewer: this.noncurrentExpireNewer,
      transitionDays: this.transitionDays,
      transitionDate: this.transitionDate,
      storageClass: this.storageClass,
      noncurrentTransitionDays: this.noncurrentTransitionDays,
      noncurrentStorageClass: this.noncurrentStorageClass,
      disable: this.disable,
      sizeLt: this.sizeLt,
      sizeGt: this.sizeGt,
    };
  }
}
