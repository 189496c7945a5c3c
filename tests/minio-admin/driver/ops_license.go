package main

// mc license register in air-gapped mode: the cluster's registration token,
// built as upstream mc builds it (cmd/license-register.go, cmd/subnet-utils.go:
// ClusterRegistrationInfo from the admin ServerInfo, JSON, standard base64)
// and the SUBNET offline registration URL around it. Nothing is sent to
// SUBNET: the one request goes to the alias's own server.

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/minio/madmin-go"
)

type clusterInfoReg struct {
	MinioVersion    string `json:"minio_version"`
	NoOfServerPools int    `json:"no_of_server_pools"`
	NoOfServers     int    `json:"no_of_servers"`
	NoOfDrives      int    `json:"no_of_drives"`
	NoOfBuckets     uint64 `json:"no_of_buckets"`
	NoOfObjects     uint64 `json:"no_of_objects"`
	TotalDriveSpace uint64 `json:"total_drive_space"`
	UsedDriveSpace  uint64 `json:"used_drive_space"`
}

type clusterRegistrationInfo struct {
	DeploymentID string         `json:"deployment_id"`
	ClusterName  string         `json:"cluster_name"`
	UsedCapacity uint64         `json:"used_capacity"`
	Info         clusterInfoReg `json:"info"`
}

func init() {
	register("license-register-airgap", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		info, err := adm.ServerInfo(ctx)
		if err != nil {
			return err
		}
		pools, drives := 1, 0
		var total, used uint64
		for _, s := range info.Servers {
			if s.PoolNumber > pools {
				pools = s.PoolNumber
			}
			drives += len(s.Disks)
			for _, d := range s.Disks {
				total += d.TotalSpace
				used += d.UsedSpace
			}
		}
		version := ""
		if len(info.Servers) > 0 {
			version = info.Servers[0].Version
		}
		reg := clusterRegistrationInfo{DeploymentID: info.DeploymentID, ClusterName: a.Name, UsedCapacity: info.Usage.Size,
			Info: clusterInfoReg{MinioVersion: version, NoOfServerPools: pools, NoOfServers: len(info.Servers), NoOfDrives: drives,
				NoOfBuckets: info.Buckets.Count, NoOfObjects: info.Objects.Count, TotalDriveSpace: total, UsedDriveSpace: used}}
		token, err := json.Marshal(reg)
		if err != nil {
			return err
		}
		print(map[string]string{"status": "success", "type": "offline", "url": "https://subnet.min.io/cluster/register?token=" + base64.StdEncoding.EncodeToString(token)})
		return nil
	})
}
