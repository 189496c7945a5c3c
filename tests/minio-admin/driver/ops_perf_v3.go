package main

// mc support perf client|site-replication (issue 24): calls of madmin-go v3
// that Debian's v2.0.7 lacks (ClientPerf, SiteReplicationPerf), made here the
// way v3 makes them. ClientPerf uploads an endless body, signed as the empty
// payload, for 5 to 30 seconds (its outcome is ignored), then asks the
// server's overhead on .../extratime and takes it off the time spent.

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/minio/madmin-go"
	"github.com/minio/minio-go/v7/pkg/signer"
)

// madmin v3 ClientPerfResult.
type clientPerfResult struct {
	Endpoint  string `json:"endpoint,omitempty"`
	Error     string `json:"error,omitempty"`
	BytesSend uint64
	TimeSpent int64
}

// madmin v3 SiteNetPerfNodeResult / SiteNetPerfResult.
type siteNetPerfNodeResult struct {
	Endpoint        string        `json:"endpoint"`
	TX              uint64        `json:"tx"`
	TXTotalDuration time.Duration `json:"txTotalDuration"`
	RX              uint64        `json:"rx"`
	RXTotalDuration time.Duration `json:"rxTotalDuration"`
	TotalConn       uint64        `json:"totalConn"`
	Error           string        `json:"error,omitempty"`
}

type siteNetPerfResult struct {
	NodeResults []siteNetPerfNodeResult `json:"nodeResults"`
}

// The same 128 KiB again and again, counted as the transport reads it.
type countingReader struct {
	buf   []byte
	count uint64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n := copy(p, c.buf)
	c.count += uint64(n)
	return n, nil
}

func v3Call(ctx context.Context, adm *madmin.AdminClient, rel string, q url.Values) ([]byte, error) {
	resp, err := adm.ExecuteMethod(ctx, http.MethodPost, madmin.RequestData{RelPath: "/v3" + rel, QueryValues: q})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	return b, err
}

// clientPerfV3 is madmin v3 ClientPerf.
func clientPerfV3(ctx context.Context, adm *madmin.AdminClient, dur time.Duration) (clientPerfResult, error) {
	if dur > 30*time.Second {
		dur = 30 * time.Second
	}
	if dur < 5*time.Second {
		dur = 5 * time.Second
	}
	upload, cancel := context.WithTimeout(ctx, dur)
	defer cancel()
	reader := &countingReader{buf: make([]byte, 128<<10)}
	rand.Read(reader.buf)
	u := url.URL{Scheme: "http", Host: flagValue("endpoint"), Path: "/minio/admin/v3/speedtest/client/devnull"}
	if flagValue("secure") == "true" {
		u.Scheme = "https"
	}
	req, err := http.NewRequestWithContext(upload, http.MethodPost, u.String(), nil)
	if err != nil {
		return clientPerfResult{}, err
	}
	req.Header.Set("X-Amz-Content-Sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
	req.Body = io.NopCloser(reader)
	req = signer.SignV4(*req, flagValue("access"), flagValue("secret"), "", "us-east-1")
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	start := time.Now()
	// madmin ignores how the upload ends (its timer, or an early answer).
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
	spent := time.Since(start).Nanoseconds()
	b, err := v3Call(ctx, adm, "/speedtest/client/devnull/extratime", nil)
	if err != nil {
		return clientPerfResult{}, err
	}
	var extra struct {
		TimeSpent int64 `json:"dur,omitempty"`
	}
	if err := json.Unmarshal(b, &extra); err != nil {
		return clientPerfResult{}, err
	}
	if extra.TimeSpent > 0 {
		spent -= extra.TimeSpent
	}
	if spent <= 0 {
		return clientPerfResult{}, errors.New("unexpected spent time duration, mostly NTP errors on the server")
	}
	return clientPerfResult{BytesSend: reader.count, TimeSpent: spent, Endpoint: u.Scheme + "://" + u.Host}, nil
}

// sitePerfV3 is madmin v3 SiteReplicationPerf.
func sitePerfV3(ctx context.Context, adm *madmin.AdminClient, dur time.Duration) (siteNetPerfResult, error) {
	var r siteNetPerfResult
	b, err := v3Call(ctx, adm, "/speedtest/site", url.Values{"duration": {dur.String()}})
	if err != nil {
		return r, err
	}
	err = json.Unmarshal(b, &r)
	return r, err
}

func init() {
	registerCanned("site-netperf", func() interface{} {
		return siteNetPerfResult{NodeResults: []siteNetPerfNodeResult{
			{Endpoint: "https://site-b:9000", TX: 20 << 30, TXTotalDuration: 10 * time.Second, RX: 10 << 30, RXTotalDuration: 10*time.Second + 900*time.Millisecond, TotalConn: 32},
			{Endpoint: "https://site-a:9000", TX: 1 << 20, TXTotalDuration: 500 * time.Millisecond, RX: 3 << 30, RXTotalDuration: 3 * time.Second, TotalConn: 16},
			{Endpoint: "https://site-c:9000", Error: "peer <unreachable>"},
		}}
	})
}
