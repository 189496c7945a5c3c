package main

import (
	"time"

	"github.com/minio/madmin-go"
)

// Canned server answers of the first admin commands (quota, info, idp).
func init() {
	registerCanned("quota", func() interface{} {
		return madmin.BucketQuota{Quota: 1 << 30, Type: madmin.HardQuota}
	})
	registerCanned("server-info", func() interface{} {
		return madmin.InfoMessage{
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
		}
	})
	registerCanned("idp-list", func() interface{} {
		return []madmin.IDPListItem{{Type: "openid", Name: "_", Enabled: true, RoleARN: "arn:minio:iam:::role/dummy"}, {Type: "openid", Name: "keycloak", Enabled: false}}
	})
	registerCanned("idp-info", func() interface{} {
		return madmin.IDPConfig{Type: "openid", Name: "keycloak", Info: []madmin.IDPCfgInfo{
			{Key: "client_id", Value: "minio", IsCfg: true}, {Key: "config_url", Value: "http://127.0.0.1:8080/.well-known/openid-configuration", IsCfg: true, IsEnv: true},
			{Key: "enable", Value: "on", IsCfg: true}}}
	})
	registerCanned("ldap-entities", func() interface{} {
		return madmin.PolicyEntitiesResult{
			Timestamp:      time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
			UserMappings:   []madmin.UserPolicyEntities{{User: "uid=alice,dc=example,dc=org", Policies: []string{"readwrite"}}},
			GroupMappings:  []madmin.GroupPolicyEntities{{Group: "cn=ops,dc=example,dc=org", Policies: []string{"diagnostics"}}},
			PolicyMappings: []madmin.PolicyEntities{{Policy: "readwrite", Users: []string{"uid=alice,dc=example,dc=org"}}},
		}
	})
	registerCanned("policy-association", func() interface{} {
		return madmin.PolicyAssociationResp{PoliciesAttached: []string{"readwrite"}, UpdatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	})
}
