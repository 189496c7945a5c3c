package main

// mc admin accesskey list (issue 25): madmin-go v3's ListAccessKeysBulk
// (GET list-access-keys-bulk with listType, users and all), which v2.0.7
// lacks, sent through `call` (ops_idp.go) as current upstream sends it.

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/minio/madmin-go"
)

func init() {
	register("accesskey-list", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		return call(ctx, adm, http.MethodGet, "/list-access-keys-bulk", listQuery(a, "users"), nil, 200, true)
	})
}

func init() {
	// admin accesskey create: current upstream's add-service-account body
	// (v3 fields; the Unix epoch as "no expiration"), as idp ldap accesskey create sends it.
	register("accesskey-create", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		exp, err := expiration(a)
		if err != nil {
			return err
		}
		req := addServiceAccountReqV3{TargetUser: a.TargetUser, AccessKey: a.AccessKey, SecretKey: a.SecretKey, Name: a.Name, Description: a.Description, Expiration: exp}
		if a.Policy != "" {
			req.Policy = json.RawMessage(a.Policy)
		}
		return call(ctx, adm, http.MethodPut, "/add-service-account", nil, req, 200, true)
	})
}
