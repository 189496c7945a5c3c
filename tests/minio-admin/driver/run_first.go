package main

import (
	"context"
	"fmt"

	"github.com/minio/madmin-go"
)

// run performs the operation as upstream mc does (cmd/<command>.go), with
// the calls it makes in the order it makes them.
func run(ctx context.Context, adm *madmin.AdminClient, op string, a args) error {
	switch op {
	case "quota-set": // mc quota set: read the current quota, then write it back changed
		q, err := adm.GetBucketQuota(ctx, a.Bucket)
		if err != nil {
			return err
		}
		q.Quota = a.Size
		q.Type = madmin.HardQuota
		return adm.SetBucketQuota(ctx, a.Bucket, &q)
	case "quota-info":
		q, err := adm.GetBucketQuota(ctx, a.Bucket)
		if err != nil {
			return err
		}
		print(q)
	case "quota-clear":
		return adm.SetBucketQuota(ctx, a.Bucket, &madmin.BucketQuota{})
	case "server-info":
		info, err := adm.ServerInfo(ctx)
		if err != nil {
			return err
		}
		print(info)
	case "idp-add", "idp-update":
		restart, err := adm.AddOrUpdateIDPConfig(ctx, a.Type, a.Name, a.Config, op == "idp-update")
		if err != nil {
			return err
		}
		print(map[string]bool{"restart": restart})
	case "idp-remove":
		restart, err := adm.DeleteIDPConfig(ctx, a.Type, a.Name)
		if err != nil {
			return err
		}
		print(map[string]bool{"restart": restart})
	case "idp-list":
		l, err := adm.ListIDPConfig(ctx, a.Type)
		if err != nil {
			return err
		}
		print(l)
	case "idp-info":
		c, err := adm.GetIDPConfig(ctx, a.Type, a.Name)
		if err != nil {
			return err
		}
		print(c)
	case "ldap-policy-attach", "ldap-policy-detach":
		req := madmin.PolicyAssociationReq{Policies: a.Policy, User: a.User, Group: a.Group}
		var r madmin.PolicyAssociationResp
		var err error
		if op == "ldap-policy-attach" {
			r, err = adm.AttachPolicyLDAP(ctx, req)
		} else {
			r, err = adm.DetachPolicyLDAP(ctx, req)
		}
		if err != nil {
			return err
		}
		print(r)
	case "ldap-policy-entities":
		r, err := adm.GetLDAPPolicyEntities(ctx, madmin.PolicyEntitiesQuery{Users: a.Users, Groups: a.Groups, Policy: a.Policy})
		if err != nil {
			return err
		}
		print(r)
	default:
		return fmt.Errorf("unknown op %q", op)
	}
	return nil
}
