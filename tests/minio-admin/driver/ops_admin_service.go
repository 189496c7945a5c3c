package main

// mc admin service …, admin update, admin user policy and admin accesskey
// sts-revoke (issue 25). Service and update calls are madmin-go v2.0.7's own;
// sts-revoke follows madmin-go v3's RevokeTokens (absent from v2.0.7),
// sent through `call` (ops_idp.go).

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/minio/madmin-go"
)

type serviceArgs struct {
	Action    string `json:"action"`
	URL       string `json:"url"`
	User      string `json:"user"`
	TokenType string `json:"tokenType"`
	All       bool   `json:"all"`
}

func decodeServiceArgs(raw json.RawMessage) (serviceArgs, error) {
	var a serviceArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func init() {
	register("service", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeServiceArgs(raw)
		if err != nil {
			return err
		}
		switch a.Action {
		case "restart":
			// upstream: restart, then ServerInfo until the server is online again
			if err := adm.ServiceRestart(ctx); err != nil {
				return err
			}
			_, err := adm.ServerInfo(ctx)
			return err
		case "stop":
			return adm.ServiceStop(ctx)
		case "freeze":
			return adm.ServiceFreeze(ctx)
		default:
			return adm.ServiceUnfreeze(ctx)
		}
	})
	register("server-update", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeServiceArgs(raw)
		if err != nil {
			return err
		}
		us, err := adm.ServerUpdate(ctx, a.URL)
		if err != nil {
			return err
		}
		print(us)
		return nil
	})
	register("user-policy", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeServiceArgs(raw)
		if err != nil {
			return err
		}
		u, err := adm.GetUserInfo(ctx, a.User)
		if err != nil {
			return err
		}
		// current upstream: each of the user's policies, then merged (minio/pkg MergePolicies, not in this GOPATH)
		for _, name := range strings.Split(u.PolicyName, ",") {
			if name == "" {
				continue
			}
			p, err := adm.InfoCannedPolicyV2(ctx, name)
			if err != nil {
				return err
			}
			print(p)
		}
		return nil
	})
	register("sts-revoke", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeServiceArgs(raw)
		if err != nil {
			return err
		}
		q := url.Values{}
		q.Set("user", a.User)
		q.Set("tokenRevokeType", a.TokenType)
		if a.All {
			q.Set("fullRevoke", "true")
		}
		return call(ctx, adm, http.MethodPost, "/revoke-tokens/builtin", q, nil, http.StatusNoContent, false)
	})
	registerCanned("server-update", func() interface{} {
		return madmin.ServerUpdateStatus{CurrentVersion: "2024-01-01T00-00-00Z", UpdatedVersion: "2024-06-01T00-00-00Z"}
	})
}
