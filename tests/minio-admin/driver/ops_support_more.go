package main

// The rest of mc support (perf, inspect, callhome, top api|drive|net|rpc) and
// mc license update, with madmin-go v2.0.7's own calls in upstream mc's order
// (cmd/support-perf*.go, support-inspect.go, support-callhome.go,
// support-top-*.go, license-update.go). Nothing reaches SUBNET: every call
// goes to the endpoint given.

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/minio/madmin-go"
)

func decodeArgs(raw json.RawMessage, v interface{}) error { return json.Unmarshal(raw, v) }

func init() {
	// mc license update: admin info (the deployment), the server's subnet config, then its license key set.
	register("license-update", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			License string `json:"license"`
		}
		if err := decodeArgs(raw, &a); err != nil {
			return err
		}
		if _, err := adm.ServerInfo(ctx); err != nil {
			return err
		}
		buf, err := adm.GetConfigKV(ctx, "subnet")
		if err != nil {
			return err
		}
		cfgs, err := madmin.ParseServerConfigOutput(string(buf))
		if err != nil {
			return err
		}
		if len(cfgs) > 0 {
			if _, ok := cfgs[0].Lookup("license"); ok {
				_, err = adm.SetConfigKV(ctx, "subnet license="+a.License)
				return err
			}
		}
		return nil
	})
	// mc support callhome: which sub-systems the server has, then read or set `callhome enable`.
	register("support-callhome", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Action string `json:"action"`
		}
		if err := decodeArgs(raw, &a); err != nil {
			return err
		}
		help, err := adm.HelpConfigKV(ctx, "", "", false)
		if err != nil {
			return err
		}
		supported := false
		for _, k := range help.KeysHelp {
			supported = supported || k.Key == "callhome"
		}
		if a.Action != "status" {
			on := "off"
			if a.Action == "enable" {
				on = "on"
			}
			_, err = adm.SetConfigKV(ctx, "callhome enable="+on)
			return err
		}
		enabled := false
		if supported {
			buf, err := adm.GetConfigKV(ctx, "callhome")
			if err != nil {
				return err
			}
			cfgs, err := madmin.ParseServerConfigOutput(string(buf))
			if err != nil {
				return err
			}
			for _, c := range cfgs {
				if c.Target == "" {
					v, found := c.Lookup("enable")
					enabled = !found || v == "on"
				}
			}
		}
		print(map[string]bool{"enabled": enabled})
		return nil
	})
	// mc support perf [net|drive|object|client|site-replication] ALIAS: the tests in upstream's order, then admin info for the report
	// (client and site-replication as madmin v3 makes them, ops_perf_v3.go).
	register("support-perf", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Tests    []string `json:"tests"`
			Duration string   `json:"duration"`
			Size     int      `json:"size"`
			Conc     int      `json:"concurrent"`
			Autotune bool     `json:"autotune"`
			Serial   bool     `json:"serial"`
			Report   bool     `json:"report"`
		}
		if err := decodeArgs(raw, &a); err != nil {
			return err
		}
		d, err := time.ParseDuration(a.Duration)
		if err != nil {
			return err
		}
		out := map[string]interface{}{}
		for _, t := range a.Tests {
			switch t {
			case "net":
				r, err := adm.Netperf(ctx, d)
				if err != nil {
					return err
				}
				out["net"] = r
			case "drive":
				ch, err := adm.DriveSpeedtest(ctx, madmin.DriveSpeedTestOpts{Serial: a.Serial, BlockSize: 4 << 20, FileSize: 1 << 30})
				if err != nil {
					return err
				}
				var rs []madmin.DriveSpeedTestResult
				for r := range ch {
					if r.Version != "" {
						rs = append(rs, r)
					}
				}
				out["drive"] = rs
			case "object":
				ch, err := adm.Speedtest(ctx, madmin.SpeedtestOpts{Size: a.Size, Duration: d, Concurrency: a.Conc, Autotune: a.Autotune})
				if err != nil {
					return err
				}
				var last madmin.SpeedTestResult
				for r := range ch {
					if r.Version != "" {
						last = r
					}
				}
				out["object"] = last
			case "client":
				r, err := clientPerfV3(ctx, adm, d)
				if err != nil {
					return err
				}
				out["client"] = r
			case "site-replication":
				r, err := sitePerfV3(ctx, adm, d)
				if err != nil {
					return err
				}
				out["siteReplication"] = r
			}
		}
		if a.Report {
			if _, err := adm.ServerInfo(ctx); err != nil {
				return err
			}
		}
		print(out)
		return nil
	})
	// mc support inspect: the data encrypted to a public key (POST, form), or --legacy (GET, one-time key).
	register("support-inspect", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Volume    string `json:"volume"`
			File      string `json:"file"`
			PublicKey string `json:"publicKey"`
		}
		if err := decodeArgs(raw, &a); err != nil {
			return err
		}
		opts := madmin.InspectOptions{Volume: a.Volume, File: a.File}
		if a.PublicKey != "" {
			k, err := base64.StdEncoding.DecodeString(a.PublicKey)
			if err != nil {
				return err
			}
			opts.PublicKey = k
		}
		key, r, err := adm.Inspect(ctx, opts)
		if err != nil {
			return err
		}
		defer r.Close()
		h := sha256.New()
		n, err := io.Copy(h, r)
		if err != nil {
			return err
		}
		print(map[string]interface{}{"key": hex.EncodeToString(key), "size": n, "sha256": hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	// mc support top api: the S3 trace (v2.0.7 reconnects at the end of an answer: the first answer's records only).
	register("support-top-api", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Errors bool `json:"errors"`
			Max    int  `json:"max"`
		}
		if err := decodeArgs(raw, &a); err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var names []string
		for t := range adm.ServiceTrace(ctx, madmin.ServiceTraceOpts{S3: true, OnlyErrors: a.Errors}) {
			if t.Err != nil {
				break
			}
			names = append(names, t.Trace.FuncName)
			if len(names) == a.Max {
				break
			}
		}
		print(names)
		return nil
	})
	// mc support top drive|net|rpc: madmin's Metrics with the options upstream gives (net and rpc are v3 types, named by their bits).
	register("support-top-metrics", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Kind     string `json:"kind"`
			N        int    `json:"n"`
			Interval int    `json:"interval"`
			Nodes    string `json:"nodes"`
		}
		if err := decodeArgs(raw, &a); err != nil {
			return err
		}
		opts := madmin.MetricsOptions{N: a.N, Interval: time.Duration(a.Interval) * time.Second}
		switch a.Kind {
		case "drive":
			if _, err := adm.ServerInfo(ctx); err != nil {
				return err
			}
			opts.Type, opts.ByDisk = madmin.MetricsDisk, true
		case "net":
			opts.Type, opts.ByHost = madmin.MetricType(32), true
		case "rpc":
			opts.Type, opts.ByHost, opts.Hosts = madmin.MetricType(256), true, strings.Split(a.Nodes, ",")
		default:
			return fmt.Errorf("unknown metrics kind %q", a.Kind)
		}
		samples := 0
		err := adm.Metrics(ctx, opts, func(madmin.RealtimeMetrics) { samples++ })
		if err != nil {
			return err
		}
		print(map[string]int{"samples": samples})
		return nil
	})
	registerCanned("help-config", func() interface{} {
		return madmin.Help{KeysHelp: madmin.HelpKVS{{Key: "site", Description: "label the server and its location"}, {Key: "subnet", Description: "register the cluster to MinIO SUBNET"}, {Key: "callhome", Description: "enable callhome to MinIO SUBNET"}}}
	})
	registerCanned("speedtest-object", func() interface{} {
		stats := func(tp, ops uint64) madmin.SpeedTestStats {
			return madmin.SpeedTestStats{ThroughputPerSec: tp, ObjectsPerSec: ops, Response: madmin.Timings{Avg: 2 * time.Millisecond, P50: time.Millisecond, Max: 9 * time.Millisecond},
				Servers: []madmin.SpeedTestStatServer{{Endpoint: "127.0.0.1:9000", ThroughputPerSec: tp / 2, ObjectsPerSec: ops / 2}, {Endpoint: "127.0.0.2:9000", ThroughputPerSec: tp / 2, ObjectsPerSec: ops / 2, Err: "disk <slow> & late"}}}
		}
		return []madmin.SpeedTestResult{
			{Servers: 2, Disks: 8, Size: 64 << 20, Concurrent: 16, PUTStats: stats(100<<20, 1)},
			{Version: "2023-01-01T00:00:00Z", Servers: 2, Disks: 8, Size: 64 << 20, Concurrent: 32, PUTStats: stats(1288490188, 19), GETStats: stats(2147483648, 1234)},
		}
	})
	registerCanned("speedtest-drive", func() interface{} {
		return []madmin.DriveSpeedTestResult{
			{Version: "1", Endpoint: "127.0.0.1:9000", DrivePerf: []madmin.DrivePerf{{Path: "/data1", ReadThroughput: 500 << 20, WriteThroughput: 300 << 20}, {Path: "/data2", Error: "drive not found"}}},
			{Endpoint: "in progress"},
			{Version: "1", Endpoint: "127.0.0.2:9000", DrivePerf: []madmin.DrivePerf{{Path: "/data1", ReadThroughput: 1 << 30, WriteThroughput: 1 << 29}}},
		}
	})
	registerCanned("netperf", func() interface{} {
		return madmin.NetperfResult{NodeResults: []madmin.NetperfNodeResult{{Endpoint: "127.0.0.2:9000", TX: 1 << 30, RX: 3 << 29}, {Endpoint: "127.0.0.1:9000", TX: 2 << 30, RX: 1 << 30, Error: "link flapping"}}}
	})
	registerCanned("support-trace-records", func() interface{} {
		t := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
		rec := func(name, node, path string, dur time.Duration, status int) madmin.TraceInfo {
			return madmin.TraceInfo{TraceType: madmin.TraceS3, NodeName: node, FuncName: name, Time: t, Path: path, Duration: dur,
				HTTP: &madmin.TraceHTTPStats{ReqInfo: madmin.TraceRequestInfo{Time: t, Method: "GET", Path: path}, RespInfo: madmin.TraceResponseInfo{Time: t, StatusCode: status},
					CallStats: madmin.TraceCallStats{InputBytes: 100, OutputBytes: 1948, TimeToFirstByte: dur / 2}}}
		}
		return []madmin.TraceInfo{
			rec("s3.PutObject", "127.0.0.1:9000", "/photos/a b.jpg", 4*time.Millisecond, 200),
			rec("s3.GetObject", "127.0.0.1:9000", "/photos/a b.jpg", 2*time.Millisecond, 200),
			rec("s3.PutObject", "127.0.0.2:9000", "/logs/x", 8*time.Millisecond, 500),
			rec("s3.GetObject", "127.0.0.2:9000", "/photos/c", 6*time.Millisecond, 404),
		}
	})
	registerCanned("metrics-drive", func() interface{} {
		var out []madmin.RealtimeMetrics
		for i := 1; i <= 3; i++ {
			n := uint64(i)
			io := madmin.DiskIOStats{ReadIOs: 100 * n, ReadSectors: 2048 * 10 * n, ReadTicks: 50 * n, WriteIOs: 50 * n, WriteSectors: 2048 * 5 * n, WriteTicks: 100 * n, TotalTicks: 250 * n}
			out = append(out, madmin.RealtimeMetrics{Hosts: []string{"127.0.0.1:9000"}, ByDisk: map[string]madmin.DiskMetric{"/data1": {NDisks: 1, IOStats: io}}, Final: i == 3})
		}
		return out
	})
}
