package main

// mc batch (issue 24): madmin-go's batch job API as upstream mc calls it
// (cmd/batch-*.go). madmin v2.0.7 has no CancelBatchJob; that call is made
// with minio-go's signer as madmin v3 makes it (DELETE cancel-job?id=).

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minio/madmin-go"
	"github.com/minio/minio-go/v7/pkg/signer"
)

type batchArgs struct {
	Job     string `json:"job"`
	JobID   string `json:"jobId"`
	JobType string `json:"jobType"`
}

func batchOp(fn func(ctx context.Context, adm *madmin.AdminClient, a batchArgs) error) opFunc {
	return func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a batchArgs
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		return fn(ctx, adm, a)
	}
}

func init() {
	register("batch-generate", batchOp(func(ctx context.Context, adm *madmin.AdminClient, a batchArgs) error {
		s, err := adm.GenerateBatchJob(ctx, madmin.GenerateBatchJobOpts{Type: madmin.BatchJobType(a.JobType)})
		if err != nil {
			return err
		}
		fmt.Println(s)
		return nil
	}))
	register("batch-start", batchOp(func(ctx context.Context, adm *madmin.AdminClient, a batchArgs) error {
		r, err := adm.StartBatchJob(ctx, a.Job)
		if err != nil {
			return err
		}
		print(r)
		return nil
	}))
	register("batch-list", batchOp(func(ctx context.Context, adm *madmin.AdminClient, a batchArgs) error {
		r, err := adm.ListBatchJobs(ctx, &madmin.ListBatchJobsFilter{ByJobType: a.JobType})
		if err != nil {
			return err
		}
		print(r)
		return nil
	}))
	register("batch-describe", batchOp(func(ctx context.Context, adm *madmin.AdminClient, a batchArgs) error {
		s, err := adm.DescribeBatchJob(ctx, a.JobID)
		if err != nil {
			return err
		}
		fmt.Print(s)
		return nil
	}))
	// mc batch status: the job looked up, then its realtime metrics followed until it ends.
	register("batch-status", batchOp(func(ctx context.Context, adm *madmin.AdminClient, a batchArgs) error {
		if _, err := adm.DescribeBatchJob(ctx, a.JobID); err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var last madmin.JobMetric
		err := adm.Metrics(ctx, madmin.MetricsOptions{Type: madmin.MetricsBatchJobs, ByJobID: a.JobID, Interval: time.Second}, func(m madmin.RealtimeMetrics) {
			if m.Aggregated.BatchJobs == nil {
				cancel()
				return
			}
			if job, ok := m.Aggregated.BatchJobs.Jobs[a.JobID]; ok {
				last = job
				if job.Complete || job.Failed {
					cancel()
				}
			}
		})
		if last.Complete || last.Failed {
			err = nil
		}
		if err != nil {
			return err
		}
		print(last)
		return nil
	}))
	register("batch-cancel", batchOp(func(ctx context.Context, adm *madmin.AdminClient, a batchArgs) error {
		scheme := "http"
		if flagValue("secure") == "true" {
			scheme = "https"
		}
		q := url.Values{"id": {a.JobID}}
		u := url.URL{Scheme: scheme, Host: flagValue("endpoint"), Path: "/minio/admin/v3/cancel-job", RawQuery: strings.ReplaceAll(q.Encode(), "+", "%20")}
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, u.String(), nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Amz-Content-Sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
		req = signer.SignV4(*req, flagValue("access"), flagValue("secret"), "", "us-east-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}))

	registerCanned("batch-start", func() interface{} {
		return madmin.BatchJobResult{ID: "KwSysDpxcBU9FNhGkn2dCf", Type: madmin.BatchJobReplicate, User: "minioadmin", Started: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	})
	registerCanned("batch-list", func() interface{} {
		return madmin.ListBatchJobsResult{Jobs: []madmin.BatchJobResult{
			{ID: "KwSysDpxcBU9FNhGkn2dCf", Type: madmin.BatchJobReplicate, User: "minioadmin", Started: time.Now().Add(-3 * time.Hour)},
			{ID: "a1", Type: madmin.BatchJobReplicate, Started: time.Now().Add(-50 * time.Hour)},
		}}
	})
	registerCanned("batch-metrics", func() interface{} {
		start := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
		var lines []madmin.RealtimeMetrics
		for i, done := range []bool{false, false, true} {
			job := madmin.JobMetric{JobID: "KwSysDpxcBU9FNhGkn2dCf", JobType: "replicate", StartTime: start, LastUpdate: start.Add(time.Duration(i+1) * 10 * time.Second), Complete: done,
				Replicate: &madmin.ReplicateInfo{Bucket: "photos", Object: fmt.Sprintf("img-%d.jpg", i), Objects: int64(10 * (i + 1)), ObjectsFailed: 1, BytesTransferred: int64(1<<20) * int64(i+1)}}
			lines = append(lines, madmin.RealtimeMetrics{Hosts: []string{"127.0.0.1:9000"}, Aggregated: madmin.Metrics{BatchJobs: &madmin.BatchJobMetrics{CollectedAt: job.LastUpdate, Jobs: map[string]madmin.JobMetric{job.JobID: job}}}})
		}
		return lines
	})
}
