package main

// mc admin user … (issue 25): built-in users with madmin-go v2.0.7's own
// calls, in the order upstream mc makes them (user list and user info fetch
// each group's description). The service-account calls follow current
// upstream (madmin-go v3's name/description/expiration fields, and v3's
// list-service-accounts answer of objects, which v2.0.7 cannot decode), so
// they go through `call` (ops_idp.go): the reference ExecuteMethod and
// EncryptData, the answer decrypted and printed as JSON.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"time"

	"github.com/minio/madmin-go"
)

type userArgs struct {
	AccessKey   string `json:"accessKey"`
	SecretKey   string `json:"secretKey"`
	Status      string `json:"status"`
	User        string `json:"user"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Expiration  string `json:"expiration"` // RFC 3339; "" = not sent
	Policy      string `json:"policy"`
}

func decodeUserArgs(raw json.RawMessage) (userArgs, error) {
	var a userArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func groupsOf(ctx context.Context, adm *madmin.AdminClient, groups []string) ([]*madmin.GroupDesc, error) {
	var out []*madmin.GroupDesc
	for _, g := range groups {
		gd, err := adm.GetGroupDescription(ctx, g)
		if err != nil {
			return nil, err
		}
		out = append(out, gd)
	}
	return out, nil
}

func init() {
	register("user-add", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		return adm.AddUser(ctx, a.AccessKey, a.SecretKey)
	})
	register("user-status", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		return adm.SetUserStatus(ctx, a.AccessKey, madmin.AccountStatus(a.Status))
	})
	register("user-remove", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		return adm.RemoveUser(ctx, a.AccessKey)
	})
	register("user-list", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		users, err := adm.ListUsers(ctx)
		if err != nil {
			return err
		}
		// upstream walks the map in Go's random order; sorted, as ours prints them.
		names := make([]string, 0, len(users))
		for k := range users {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if _, err := groupsOf(ctx, adm, users[k].MemberOf); err != nil {
				return err
			}
		}
		print(users)
		return nil
	})
	register("user-info", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		u, err := adm.GetUserInfo(ctx, a.AccessKey)
		if err != nil {
			return err
		}
		if _, err := groupsOf(ctx, adm, u.MemberOf); err != nil {
			return err
		}
		print(u)
		return nil
	})
	register("svcacct-add", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		req := addServiceAccountReqV3{TargetUser: a.User, AccessKey: a.AccessKey, SecretKey: a.SecretKey, Name: a.Name, Description: a.Description}
		if a.Expiration != "" {
			t, err := time.Parse(time.RFC3339, a.Expiration)
			if err != nil {
				return err
			}
			req.Expiration = &t
		}
		if a.Policy != "" {
			req.Policy = json.RawMessage(a.Policy)
		}
		return call(ctx, adm, http.MethodPut, "/add-service-account", nil, req, 200, true)
	})
	register("svcacct-list", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		return call(ctx, adm, http.MethodGet, "/list-service-accounts", url.Values{"user": {a.User}}, nil, 200, true)
	})
	register("svcacct-info", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		return call(ctx, adm, http.MethodGet, "/info-service-account", url.Values{"accessKey": {a.AccessKey}}, nil, 200, true)
	})
	register("sts-info", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeUserArgs(raw)
		if err != nil {
			return err
		}
		r, err := adm.TemporaryAccountInfo(ctx, a.AccessKey)
		if err != nil {
			return err
		}
		print(r)
		return nil
	})
}

// madmin-go v3 InfoServiceAccountResp (JSON names as published).
type infoServiceAccountRespV3 struct {
	ParentUser    string     `json:"parentUser"`
	AccountStatus string     `json:"accountStatus"`
	ImpliedPolicy bool       `json:"impliedPolicy"`
	Policy        string     `json:"policy"`
	Name          string     `json:"name,omitempty"`
	Description   string     `json:"description,omitempty"`
	Expiration    *time.Time `json:"expiration,omitempty"`
}

func init() {
	updated := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	expiry := time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC)
	epoch := time.Unix(0, 0).UTC()
	registerCanned("user-list", func() interface{} {
		return map[string]madmin.UserInfo{
			"alice":                    {PolicyName: "readwrite", Status: madmin.AccountEnabled, MemberOf: []string{"ops"}, UpdatedAt: updated},
			"bob with a very long name": {Status: madmin.AccountDisabled, UpdatedAt: updated},
		}
	})
	registerCanned("user-info", func() interface{} {
		return madmin.UserInfo{PolicyName: "readwrite,diagnostics", Status: madmin.AccountEnabled, MemberOf: []string{"ops"}, UpdatedAt: updated}
	})
	registerCanned("group-desc", func() interface{} {
		return madmin.GroupDesc{Name: "ops", Status: "enabled", Members: []string{"alice"}, Policy: "consoleAdmin,diagnostics", UpdatedAt: updated}
	})
	registerCanned("svcacct-list", func() interface{} {
		return struct {
			Accounts []serviceAccountInfoV3 `json:"accounts"`
		}{[]serviceAccountInfoV3{
			{ParentUser: "alice", AccountStatus: "on", AccessKey: "SVC1", Expiration: &epoch},
			{ParentUser: "alice", AccountStatus: "off", AccessKey: "SVC2", Name: "nightly", Expiration: &expiry},
		}}
	})
	registerCanned("svcacct-info", func() interface{} {
		return infoServiceAccountRespV3{ParentUser: "alice", AccountStatus: "on", ImpliedPolicy: false, Policy: `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::photos/*"]}]}`,
			Name: "backup", Description: "nightly backups", Expiration: &expiry}
	})
	registerCanned("sts-info", func() interface{} {
		return madmin.TemporaryAccountInfoResp{ParentUser: "alice", AccountStatus: "on", ImpliedPolicy: true, Policy: `{"Version":"2012-10-17","Statement":[]}`}
	})
}
