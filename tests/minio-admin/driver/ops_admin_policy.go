package main

// mc admin policy … (issue 25): create, remove, list and info with madmin-go
// v2.0.7's own calls. attach/detach follow current upstream (madmin-go v3,
// whose AttachPolicy/DetachPolicy expect 200 and an encrypted
// PolicyAssociationResp; v2.0.7 expects 201/204), so they go through `call`
// (ops_idp.go): the same path and encrypted body through ExecuteMethod.

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/minio/madmin-go"
)

type policyArgs struct {
	Name     string   `json:"name"`
	Doc      string   `json:"doc"`
	Policies []string `json:"policies"`
	User     string   `json:"user"`
	Group    string   `json:"group"`
	Users    []string `json:"users"`
	Groups   []string `json:"groups"`
}

func decodePolicyArgs(raw json.RawMessage) (policyArgs, error) {
	var a policyArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func init() {
	register("policy-create", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodePolicyArgs(raw)
		if err != nil {
			return err
		}
		return adm.AddCannedPolicy(ctx, a.Name, []byte(a.Doc))
	})
	register("policy-remove", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodePolicyArgs(raw)
		if err != nil {
			return err
		}
		return adm.RemoveCannedPolicy(ctx, a.Name)
	})
	register("policy-list", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		p, err := adm.ListCannedPolicies(ctx)
		if err != nil {
			return err
		}
		print(p)
		return nil
	})
	register("policy-info", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodePolicyArgs(raw)
		if err != nil {
			return err
		}
		p, err := adm.InfoCannedPolicyV2(ctx, a.Name)
		if err != nil {
			return err
		}
		print(p)
		return nil
	})
	for _, verb := range []string{"attach", "detach"} {
		verb := verb
		register("policy-"+verb, func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
			a, err := decodePolicyArgs(raw)
			if err != nil {
				return err
			}
			req := madmin.PolicyAssociationReq{Policies: a.Policies, User: a.User, Group: a.Group}
			return call(ctx, adm, http.MethodPost, "/idp/builtin/policy/"+verb, nil, req, 200, true)
		})
	}
	register("policy-entities", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodePolicyArgs(raw)
		if err != nil {
			return err
		}
		r, err := adm.GetPolicyEntities(ctx, madmin.PolicyEntitiesQuery{Users: a.Users, Groups: a.Groups, Policy: a.Policies})
		if err != nil {
			return err
		}
		print(r)
		return nil
	})
	registerCanned("policy-list", func() interface{} {
		return map[string]json.RawMessage{"readwrite": json.RawMessage(`{"Version":"2012-10-17","Statement":[]}`), "diagnostics": json.RawMessage(`{"Version":"2012-10-17","Statement":[]}`)}
	})
	registerCanned("policy-info", func() interface{} {
		return madmin.PolicyInfo{PolicyName: "readonly", Policy: json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::*"]}]}`),
			CreateDate: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), UpdateDate: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	})
}
