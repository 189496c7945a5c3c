package main

// MinIO's zip extension and bucket notifications through minio-go v7, as
// upstream mc uses them: `ls --zip` (ListObjects with x-minio-extract),
// `cat|head|cp --zip` (StatObject, then GetObject, with the header), and the
// ListenBucketNotification stream of `find --watch` and `mirror --active-active`.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"

	minio "github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/notification"
)

type zipListArgs struct {
	Bucket    string `json:"bucket"`
	Prefix    string `json:"prefix"`
	Recursive bool   `json:"recursive"`
}

type listenArgs struct {
	Bucket string   `json:"bucket"`
	Prefix string   `json:"prefix"`
	Suffix string   `json:"suffix"`
	Events []string `json:"events"`
}

func init() {
	registerS3("zip-list", func(ctx context.Context, s3 *minio.Client, a zipListArgs) error {
		opts := minio.ListObjectsOptions{Prefix: a.Prefix, Recursive: a.Recursive}
		opts.Set("x-minio-extract", "true")
		var keys []string
		for o := range s3.ListObjects(ctx, a.Bucket, opts) {
			if o.Err != nil {
				return o.Err
			}
			keys = append(keys, o.Key)
		}
		print(keys)
		return nil
	})
	registerS3("zip-get", func(ctx context.Context, s3 *minio.Client, a objectArgs) error {
		so := minio.StatObjectOptions{}
		so.Set("x-minio-extract", "true")
		info, err := s3.StatObject(ctx, a.Bucket, a.Key, so)
		if err != nil {
			return err
		}
		go_ := minio.GetObjectOptions{}
		go_.Set("x-minio-extract", "true")
		obj, err := s3.GetObject(ctx, a.Bucket, a.Key, go_)
		if err != nil {
			return err
		}
		defer obj.Close()
		h := sha256.New()
		n, err := io.Copy(h, obj)
		if err != nil {
			return err
		}
		print(map[string]interface{}{"size": info.Size, "read": n, "sha256": hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	// The first notification of the stream, then the driver stops listening.
	registerS3("listen", func(ctx context.Context, s3 *minio.Client, a listenArgs) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		for n := range s3.ListenBucketNotification(ctx, a.Bucket, a.Prefix, a.Suffix, a.Events) {
			if n.Err != nil {
				return n.Err
			}
			var keys []string
			for _, r := range n.Records {
				keys = append(keys, r.S3.Object.Key)
			}
			print(keys)
			return nil
		}
		return nil
	})
	// One ListenBucketNotification record as minio-go reads it (MinIO's event shape).
	registerCanned("notification", func() interface{} {
		var e notification.Event
		e.EventVersion, e.EventSource, e.EventTime, e.EventName = "2.0", "minio:s3", "2024-01-02T03:04:05.123Z", string(notification.ObjectCreatedPut)
		e.S3.SchemaVersion, e.S3.ConfigurationID = "1.0", "Config"
		e.S3.Bucket.Name = "src"
		e.S3.Object.Key, e.S3.Object.Size, e.S3.Object.ETag, e.S3.Object.ContentType = "new.jpg", 3, "0cc175b9c0f1b6a831c399e269772661", "image/jpeg"
		e.S3.Object.UserMetadata = map[string]string{"content-type": "image/jpeg"}
		e.S3.Object.Sequencer = "17A1B2C3D4E5F607"
		e.Source.Host, e.Source.Port, e.Source.UserAgent = "127.0.0.1", "", "MinIO (linux; amd64) minio-go/v7.0.46"
		return notification.Info{Records: []notification.Event{e}}
	})
}
