package main

// mc admin trace, admin logs and admin scanner status (issue 25): the
// streaming calls of madmin-go v2.0.7 (ServiceTrace, GetLogs, Metrics),
// printing each record as the library decoded it.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/minio/madmin-go"
)

// madmin v3 BucketScanInfo (v2.0.7 has no BucketScanInfo call): no JSON tags, Go's field names.
type bucketScanInfo struct {
	Pool, Set   int
	Cycle       uint64
	Ongoing     bool
	LastUpdate  time.Time
	LastStarted time.Time
	Completed   []time.Time
}

type streamArgs struct {
	Opts      madmin.ServiceTraceOpts `json:"opts"`
	Threshold string                  `json:"threshold"`
	Node      string                  `json:"node"`
	Limit     int                     `json:"limit"`
	LogType   string                  `json:"logType"`
	Count     int                     `json:"count"`
	N         int                     `json:"n"`
	Interval  int                     `json:"interval"`
	Nodes     string                  `json:"nodes"`
	Bucket    string                  `json:"bucket"`
}

func decodeStreamArgs(raw json.RawMessage) (streamArgs, error) {
	var a streamArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func init() {
	// trace: the records until the stream ends (madmin then reports its error and asks again; mc stops at the error).
	register("trace", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeStreamArgs(raw)
		if err != nil {
			return err
		}
		if a.Threshold != "" {
			if a.Opts.Threshold, err = time.ParseDuration(a.Threshold); err != nil {
				return err
			}
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		for t := range adm.ServiceTrace(ctx, a.Opts) {
			if t.Err != nil {
				return nil
			}
			print(t.Trace)
		}
		return nil
	})
	// logs: the first `count` records (madmin follows the log for ever).
	register("logs", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeStreamArgs(raw)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		n := 0
		for l := range adm.GetLogs(ctx, a.Node, a.Limit, a.LogType) {
			if l.Err != nil {
				return l.Err
			}
			print(l)
			if n++; n == a.Count {
				return nil
			}
		}
		return nil
	})
	register("scanner-status", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeStreamArgs(raw)
		if err != nil {
			return err
		}
		opts := madmin.MetricsOptions{Type: madmin.MetricsScanner, N: a.N, Interval: time.Duration(a.Interval) * time.Second, Hosts: strings.Split(a.Nodes, ","), ByHost: false}
		return adm.Metrics(ctx, opts, func(m madmin.RealtimeMetrics) { print(m) })
	})

	// mc admin scanner status --bucket B: madmin v3 BucketScanInfo, GET /scanner/status/B.
	register("scanner-bucket", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeStreamArgs(raw)
		if err != nil {
			return err
		}
		resp, err := adm.ExecuteMethod(ctx, http.MethodGet, madmin.RequestData{RelPath: "/v3/scanner/status/" + a.Bucket})
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d: %s", resp.StatusCode, b)
		}
		var info []bucketScanInfo
		if err := json.Unmarshal(b, &info); err != nil {
			return err
		}
		print(info)
		return nil
	})

	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	registerCanned("bucket-scan-info", func() interface{} {
		hours := func(from time.Time) (t []time.Time) {
			for i := 0; i < 16; i++ {
				t = append(t, from.Add(time.Duration(i)*time.Hour))
			}
			return t
		}
		day := time.Date(2024, 5, 5, 0, 0, 0, 0, time.UTC)
		return []bucketScanInfo{
			{Pool: 0, Set: 0, Cycle: 40, Ongoing: true, LastUpdate: at, LastStarted: at.Add(-time.Minute), Completed: hours(day)},
			{Pool: 0, Set: 1, Cycle: 38, LastUpdate: at.Add(-time.Hour), LastStarted: at.Add(-2 * time.Hour), Completed: hours(day.Add(2 * time.Hour))},
		}
	})
	registerCanned("trace-records", func() interface{} {
		return []madmin.TraceInfo{
			{TraceType: madmin.TraceS3, NodeName: "127.0.0.1:9000", FuncName: "s3.GetObject", Time: at, Path: "/photos/a b.jpg", Duration: 1234567 * time.Nanosecond,
				HTTP: &madmin.TraceHTTPStats{
					ReqInfo:   madmin.TraceRequestInfo{Time: at, Proto: "HTTP/1.1", Method: "GET", Path: "/photos/a b.jpg", RawQuery: "versionId=v1", Headers: map[string][]string{"Host": {"127.0.0.1:9000"}, "User-Agent": {"mc/test"}}, Client: "127.0.0.1"},
					RespInfo:  madmin.TraceResponseInfo{Time: at.Add(1234567), Headers: map[string][]string{"Content-Type": {"image/jpeg"}}, StatusCode: 200},
					CallStats: madmin.TraceCallStats{InputBytes: 0, OutputBytes: 1536, TimeToFirstByte: 456789},
				}},
			{TraceType: madmin.TraceS3, NodeName: "127.0.0.1:9000", FuncName: "s3.PutObject", Time: at.Add(time.Second), Path: "/photos/big.bin", Duration: 2 * time.Second,
				HTTP: &madmin.TraceHTTPStats{
					ReqInfo:   madmin.TraceRequestInfo{Time: at.Add(time.Second), Proto: "HTTP/1.1", Method: "PUT", Path: "/photos/big.bin", Headers: map[string][]string{"Host": {"127.0.0.1:9000"}}, Body: []byte("<stream>"), Client: "10.0.0.7"},
					RespInfo:  madmin.TraceResponseInfo{Time: at.Add(3 * time.Second), Body: []byte("<Error><Code>SlowDown</Code></Error>"), StatusCode: 503},
					CallStats: madmin.TraceCallStats{InputBytes: 5 << 20, OutputBytes: 120, TimeToFirstByte: 0},
				}},
			{TraceType: madmin.TraceStorage, NodeName: "127.0.0.1:9000", FuncName: "storage.ReadFile", Time: at.Add(2 * time.Second), Path: "/data1/photos/a b.jpg/xl.meta", Duration: 850 * time.Microsecond, Error: "file not found"},
			{TraceType: madmin.TraceBootstrap, NodeName: "127.0.0.1:9000", FuncName: "bootstrap.Init", Time: at.Add(3 * time.Second), Message: "Server ready"},
		}
	})
	registerCanned("scanner-metrics", func() interface{} {
		sc := &madmin.ScannerMetrics{CollectedAt: at, CurrentCycle: 7, CurrentStarted: at,
			CyclesCompletedAt: []time.Time{at.Add(-2 * time.Hour), at.Add(-time.Hour)}, ActivePaths: []string{"/data1/photos", "/data2/photos"}}
		sc.LastMinute.Actions = map[string]madmin.TimedAction{"ScanObject": {Count: 120, AccTime: 120 * 250000}, "ReadMetadata": {Count: 10, AccTime: 10 * 3000000, Bytes: 10 * 4096}, "Yield": {Count: 4, AccTime: 6000000}}
		return madmin.RealtimeMetrics{Hosts: []string{"127.0.0.1:9000"}, Aggregated: madmin.Metrics{Scanner: sc}, Final: true}
	})
}
