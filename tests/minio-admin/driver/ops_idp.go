package main

// Access keys of LDAP and OpenID users (mc idp ldap|openid accesskey …), as
// current upstream mc sends them. madmin-go v2.0.7 predates these calls
// (list-access-keys-bulk, info-access-key, idp/ldap/add-service-account) and
// the name/description/expiration fields of the service-account requests, so
// the operations below follow madmin-go v3's published user-commands.go and
// idp-commands.go: the same paths, queries and JSON field names, encrypted
// with the reference EncryptData and sent through the reference client's
// ExecuteMethod (its SigV4 signing, its headers).

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/minio/madmin-go"
)

type accessKeyArgs struct {
	AccessKey   string   `json:"accessKey"`
	SecretKey   string   `json:"secretKey"`
	TargetUser  string   `json:"targetUser"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Expiration  string   `json:"expiration"` // RFC 3339; "" = none (upstream sends the Unix epoch)
	Policy      string   `json:"policy"`     // the policy document's text
	Status      string   `json:"status"`
	ListType    string   `json:"listType"`
	All         bool     `json:"all"`
	Users       []string `json:"users"`
	ConfigName  string   `json:"configName"`
	Reply       int      `json:"reply"` // the status the operation accepts (upstream: 204 for update/delete)
}

// madmin-go v3 AddServiceAccountReq (JSON names as published).
type addServiceAccountReqV3 struct {
	Policy      json.RawMessage `json:"policy,omitempty"`
	TargetUser  string          `json:"targetUser,omitempty"`
	AccessKey   string          `json:"accessKey,omitempty"`
	SecretKey   string          `json:"secretKey,omitempty"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Expiration  *time.Time      `json:"expiration,omitempty"`
	Comment     string          `json:"comment,omitempty"`
}

// madmin-go v3 UpdateServiceAccountReq.
type updateServiceAccountReqV3 struct {
	NewPolicy      json.RawMessage `json:"newPolicy,omitempty"`
	NewSecretKey   string          `json:"newSecretKey,omitempty"`
	NewStatus      string          `json:"newStatus,omitempty"`
	NewName        string          `json:"newName,omitempty"`
	NewDescription string          `json:"newDescription,omitempty"`
	NewExpiration  *time.Time      `json:"newExpiration,omitempty"`
}

func decodeAccessKeyArgs(raw json.RawMessage) (accessKeyArgs, error) {
	var a accessKeyArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func expiration(a accessKeyArgs) (*time.Time, error) {
	if a.Expiration == "" {
		t := time.Unix(0, 0).UTC()
		return &t, nil
	}
	t, err := time.Parse(time.RFC3339, a.Expiration)
	return &t, err
}

// call sends one admin request like madmin's executeMethod and prints the
// (decrypted) JSON answer.
func call(ctx context.Context, adm *madmin.AdminClient, method, rel string, q url.Values, body interface{}, want int, decrypt bool) error {
	var content []byte
	if body != nil {
		plain, err := json.Marshal(body)
		if err != nil {
			return err
		}
		if content, err = madmin.EncryptData(secretKey(), plain); err != nil {
			return err
		}
	}
	resp, err := adm.ExecuteMethod(ctx, method, madmin.RequestData{RelPath: "/v3" + rel, QueryValues: q, Content: content})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	if !decrypt {
		return nil
	}
	data, err := madmin.DecryptData(secretKey(), resp.Body)
	if err != nil {
		return err
	}
	var v interface{}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	print(v)
	return nil
}

func listQuery(a accessKeyArgs, usersKey string) url.Values {
	q := url.Values{}
	if a.ListType == "" {
		a.ListType = "all"
	}
	q.Set("listType", a.ListType)
	q[usersKey] = a.Users
	if a.All {
		q.Set("all", "true")
	}
	if a.ConfigName != "" {
		q.Set("configName", a.ConfigName)
	}
	return q
}

func init() {
	register("ldap-accesskey-list", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		return call(ctx, adm, http.MethodGet, "/idp/ldap/list-access-keys-bulk", listQuery(a, "userDNs"), nil, 200, true)
	})
	register("openid-accesskey-list", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		return call(ctx, adm, http.MethodGet, "/idp/openid/list-access-keys-bulk", listQuery(a, "users"), nil, 200, true)
	})
	register("accesskey-info", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		return call(ctx, adm, http.MethodGet, "/info-access-key", url.Values{"accessKey": {a.AccessKey}}, nil, 200, true)
	})
	register("ldap-accesskey-create", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
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
		return call(ctx, adm, http.MethodPut, "/idp/ldap/add-service-account", nil, req, 200, true)
	})
	register("accesskey-edit", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		req := updateServiceAccountReqV3{NewSecretKey: a.SecretKey, NewStatus: a.Status, NewName: a.Name, NewDescription: a.Description}
		if a.Expiration != "" {
			if req.NewExpiration, err = expiration(a); err != nil {
				return err
			}
		}
		if a.Policy != "" {
			req.NewPolicy = json.RawMessage(a.Policy)
		}
		return call(ctx, adm, http.MethodPost, "/update-service-account", url.Values{"accessKey": {a.AccessKey}}, req, 204, false)
	})
	// enable/disable: madmin v2.0.7's own UpdateServiceAccount carries newStatus.
	register("accesskey-status", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		return adm.UpdateServiceAccount(ctx, a.AccessKey, madmin.UpdateServiceAccountReq{NewStatus: a.Status})
	})
	register("accesskey-remove", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeAccessKeyArgs(raw)
		if err != nil {
			return err
		}
		return adm.DeleteServiceAccount(ctx, a.AccessKey)
	})
}

// secretKey is the -secret flag (main's flags are parsed before any operation runs).
func secretKey() string {
	return flag.Lookup("secret").Value.String()
}

// madmin-go v3 answer types, for the canned answers.
type serviceAccountInfoV3 struct {
	ParentUser    string     `json:"parentUser"`
	AccountStatus string     `json:"accountStatus"`
	ImpliedPolicy bool       `json:"impliedPolicy"`
	AccessKey     string     `json:"accessKey"`
	Name          string     `json:"name,omitempty"`
	Description   string     `json:"description,omitempty"`
	Expiration    *time.Time `json:"expiration,omitempty"`
}

type listAccessKeysRespV3 struct {
	ServiceAccounts []serviceAccountInfoV3 `json:"serviceAccounts"`
	STSKeys         []serviceAccountInfoV3 `json:"stsKeys"`
}

type openIDUserAccessKeysV3 struct {
	MinioAccessKey  string                 `json:"minioAccessKey"`
	ID              string                 `json:"ID"`
	ReadableName    string                 `json:"readableName"`
	ServiceAccounts []serviceAccountInfoV3 `json:"serviceAccounts"`
	STSKeys         []serviceAccountInfoV3 `json:"stsKeys"`
}

type listAccessKeysOpenIDRespV3 struct {
	ConfigName string                   `json:"configName"`
	Users      []openIDUserAccessKeysV3 `json:"users"`
}

type infoAccessKeyRespV3 struct {
	AccessKey          string
	ParentUser         string     `json:"parentUser"`
	AccountStatus      string     `json:"accountStatus"`
	ImpliedPolicy      bool       `json:"impliedPolicy"`
	Policy             string     `json:"policy"`
	Name               string     `json:"name,omitempty"`
	Description        string     `json:"description,omitempty"`
	Expiration         *time.Time `json:"expiration,omitempty"`
	UserType           string     `json:"userType"`
	UserProvider       string     `json:"userProvider"`
	LDAPSpecificInfo   struct {
		Username string `json:"username"`
	} `json:"ldapSpecificInfo,omitempty"`
}

type addServiceAccountRespV3 struct {
	Credentials struct {
		AccessKey    string    `json:"accessKey"`
		SecretKey    string    `json:"secretKey"`
		SessionToken string    `json:"sessionToken,omitempty"`
		Expiration   time.Time `json:"expiration,omitempty"`
	} `json:"credentials"`
}

func init() {
	epoch := time.Unix(0, 0).UTC()
	registerCanned("ldap-accesskey-list", func() interface{} {
		return map[string]listAccessKeysRespV3{
			"uid=alice,dc=example,dc=org": {
				ServiceAccounts: []serviceAccountInfoV3{{ParentUser: "uid=alice,dc=example,dc=org", AccountStatus: "on", AccessKey: "SVCALICE1", Name: "backup", Expiration: &epoch}},
				STSKeys:         []serviceAccountInfoV3{{ParentUser: "uid=alice,dc=example,dc=org", AccountStatus: "on", AccessKey: "STSALICE1"}},
			},
		}
	})
	registerCanned("openid-accesskey-list", func() interface{} {
		return []listAccessKeysOpenIDRespV3{{ConfigName: "keycloak", Users: []openIDUserAccessKeysV3{{MinioAccessKey: "a1b2c3", ID: "alice-sub", ReadableName: "Alice",
			ServiceAccounts: []serviceAccountInfoV3{{ParentUser: "a1b2c3", AccountStatus: "on", AccessKey: "SVCOIDC1"}}}}}}
	})
	registerCanned("accesskey-info", func() interface{} {
		r := infoAccessKeyRespV3{ParentUser: "uid=alice,dc=example,dc=org", AccountStatus: "off", ImpliedPolicy: true, Policy: `{"Version":"2012-10-17","Statement":[]}`,
			Name: "backup", Description: "nightly backups", Expiration: &epoch, UserType: "Service Account", UserProvider: "ldap"}
		r.LDAPSpecificInfo.Username = "alice"
		return r
	})
	registerCanned("accesskey-create", func() interface{} {
		var r addServiceAccountRespV3
		r.Credentials.AccessKey = "NEWKEY123"
		r.Credentials.SecretKey = "NEWSECRET123456789"
		return r
	})
}
