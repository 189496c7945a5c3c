// Reference driver for the differential tests of mc's MinIO admin commands
// (issue 24): it performs one named operation with MinIO's own Go admin
// library (madmin-go, Debian's v2.0.7) against the given endpoint, the way
// upstream mc calls it, and prints what the library returned as JSON. It also
// encrypts and decrypts admin payloads (madmin EncryptData/DecryptData) and
// writes canned server answers from the library's own types.
//
// Built offline in GOPATH mode by tests/minio-admin/go-driver.ts:
//   GO111MODULE=off GOPATH=/usr/share/gocode go build
//
// Usage: driver -op NAME [-endpoint HOST:PORT -access AK -secret SK -args JSON]
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/minio/madmin-go"
)

type args struct {
	Bucket  string   `json:"bucket"`
	Size    uint64   `json:"size"`
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Config  string   `json:"config"`
	Update  bool     `json:"update"`
	Read    bool     `json:"clusterRead"`
	Maint   bool     `json:"maintenance"`
	User    string   `json:"user"`
	Group   string   `json:"group"`
	Users   []string `json:"users"`
	Groups  []string `json:"groups"`
	Policy  []string `json:"policies"`
	Payload string   `json:"payload"`
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func print(v interface{}) {
	b, err := json.Marshal(v)
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(append(b, '\n'))
}

func main() {
	op := flag.String("op", "", "operation")
	endpoint := flag.String("endpoint", "", "host:port")
	access := flag.String("access", "", "access key")
	secret := flag.String("secret", "", "secret key")
	secure := flag.Bool("secure", false, "https (certificates not verified: the recorder's own)")
	rawArgs := flag.String("args", "{}", "operation arguments (JSON)")
	flag.Parse()
	var a args
	if err := json.Unmarshal([]byte(*rawArgs), &a); err != nil {
		fail(err)
	}

	// Payload crypto and canned answers need no server.
	switch *op {
	case "encrypt":
		in, _ := io.ReadAll(os.Stdin)
		out, err := madmin.EncryptData(*secret, in)
		if err != nil {
			fail(err)
		}
		os.Stdout.Write(out)
		return
	case "decrypt":
		out, err := madmin.DecryptData(*secret, os.Stdin)
		if err != nil {
			fail(err)
		}
		os.Stdout.Write(out)
		return
	case "canned":
		canned(a.Name)
		return
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	transport := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	if strings.HasPrefix(*op, "anon-") {
		anon, err := madmin.NewAnonymousClient(*endpoint, *secure)
		if err != nil {
			fail(err)
		}
		anon.SetCustomTransport(transport)
		switch *op {
		case "anon-healthy":
			r, err := anon.Healthy(ctx, madmin.HealthOpts{ClusterRead: a.Read, Maintenance: a.Maint})
			if err != nil {
				fail(err)
			}
			print(r)
		case "anon-alive":
			for r := range anon.Alive(ctx, madmin.AliveOpts{}) {
				print(map[string]interface{}{"online": r.Online, "error": fmt.Sprint(r.Error)})
			}
		default:
			fail(fmt.Errorf("unknown op %q", *op))
		}
		return
	}
	adm, err := madmin.New(*endpoint, *access, *secret, *secure)
	if err != nil {
		fail(err)
	}
	adm.SetCustomTransport(transport)
	if *op == "ping-nodes" { // mc ping --distributed / --node NAME: the nodes from ServerInfo, then Alive on each
		anon, err := madmin.NewAnonymousClient(*endpoint, *secure)
		if err != nil {
			fail(err)
		}
		anon.SetCustomTransport(transport)
		info, err := adm.ServerInfo(ctx)
		if err != nil {
			fail(err)
		}
		servers := info.Servers
		if a.Name != "" {
			servers = nil
			for _, s := range info.Servers {
				if s.Endpoint == a.Name {
					servers = append(servers, s)
				}
			}
		}
		for r := range anon.Alive(ctx, madmin.AliveOpts{}, servers...) {
			print(map[string]interface{}{"host": r.Endpoint.Host, "online": r.Online, "failed": r.Error != nil})
		}
		return
	}
	if err := run(ctx, adm, *op, a); err != nil {
		fail(err)
	}
}

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

// canned prints a server answer built from the library's own types (stdout),
// encrypted with -secret by the caller when the server encrypts it.
func canned(name string) {
	switch name {
	case "quota":
		print(madmin.BucketQuota{Quota: 1 << 30, Type: madmin.HardQuota})
	case "server-info":
		print(madmin.InfoMessage{
			Mode:         "online",
			Region:       "us-east-1",
			DeploymentID: "6faeded5-5cf3-4133-8a37-07c5d500207c",
			Buckets:      madmin.Buckets{Count: 3},
			Objects:      madmin.Objects{Count: 12},
			Usage:        madmin.Usage{Size: 1536},
			Servers: []madmin.ServerProperties{
				{State: "online", Endpoint: "127.0.0.1:9000", Uptime: 3600, Version: "2023-01-01T00:00:00Z", Network: map[string]string{"127.0.0.1:9000": "online"},
					Disks: []madmin.Disk{{Endpoint: "/data1", State: "ok", TotalSpace: 1 << 30, UsedSpace: 1 << 20}}},
			},
			Backend: madmin.ErasureBackend{Type: madmin.ErasureType, OnlineDisks: 1, StandardSCParity: 0, RRSCParity: 0},
		})
	case "idp-list":
		print([]madmin.IDPListItem{{Type: "openid", Name: "_", Enabled: true, RoleARN: "arn:minio:iam:::role/dummy"}, {Type: "openid", Name: "keycloak", Enabled: false}})
	case "idp-info":
		print(madmin.IDPConfig{Type: "openid", Name: "keycloak", Info: []madmin.IDPCfgInfo{
			{Key: "client_id", Value: "minio", IsCfg: true}, {Key: "config_url", Value: "http://127.0.0.1:8080/.well-known/openid-configuration", IsCfg: true, IsEnv: true},
			{Key: "enable", Value: "on", IsCfg: true}}})
	case "ldap-entities":
		print(madmin.PolicyEntitiesResult{
			Timestamp: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
			UserMappings: []madmin.UserPolicyEntities{{User: "uid=alice,dc=example,dc=org", Policies: []string{"readwrite"}}},
			GroupMappings: []madmin.GroupPolicyEntities{{Group: "cn=ops,dc=example,dc=org", Policies: []string{"diagnostics"}}},
			PolicyMappings: []madmin.PolicyEntities{{Policy: "readwrite", Users: []string{"uid=alice,dc=example,dc=org"}}},
		})
	case "policy-association":
		print(madmin.PolicyAssociationResp{PoliciesAttached: []string{"readwrite"}, UpdatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)})
	default:
		fail(fmt.Errorf("unknown canned answer %q", name))
	}
}
