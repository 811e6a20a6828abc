package delta

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/google/uuid"
)

// S3Store is a prefix of an S3 bucket, or of an S3-compatible server's
// (MinIO, Ceph, moto), as a Store, through the AWS SDK for Go v2.
//
// Its endpoint, region and credentials come from the standard AWS
// configuration chain and never from a workspace's YAML: AWS_REGION,
// AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, AWS_PROFILE
// with ~/.aws/config and ~/.aws/credentials (SSO, assumed roles, process
// credentials), web identity, the container and instance metadata
// endpoints, and AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL, or a
// profile's endpoint_url) for an S3-compatible server. A custom endpoint
// is addressed path-style (http://host/bucket/key), as MinIO and moto
// need; set LAKTORY_S3_VIRTUAL_HOSTED=1 for a server that wants
// bucket.host.
//
// PutIfAbsent is PutObject with If-None-Match: * (S3's conditional write,
// since August 2024): the server refuses with 412 Precondition Failed
// when the key exists, so two writers of one commit version cannot both
// win. A server that ignores the header would let the second overwrite the
// first, and one whose check is a lookup then a write would let two
// racing writers through: OpenStore checks both once per bucket and
// process (probeConditionalWrite), and a store that fails the check has
// no AtomicPutIfAbsent, so CheckWritable refuses commits to it
// unless a Locker guards it.
type S3Store struct {
	client *s3.Client
	bucket string
	prefix string // no leading or trailing slash; "" for the whole bucket
	// atomic is the result of the conditional-write probe; probeErr says
	// why it failed or could not be made.
	atomic   bool
	probeErr error
	// partSize is the size of a multipart upload's parts; Put uploads in
	// one request up to multipartThreshold bytes.
	partSize, multipartThreshold int64
	*storeCounters
}

// s3Clients shares one client, and one probe, per bucket and endpoint in
// a process: a client holds a connection pool, and the probe costs four
// requests.
var s3Clients = struct {
	sync.Mutex
	byBucket map[string]*s3Bucket
}{byBucket: map[string]*s3Bucket{}}

// RemoteStats sums the request counts of the S3 buckets this process has
// opened (the stores of one bucket share their counters): what runs
// against a bucket cost.
func RemoteStats() StoreStats {
	s3Clients.Lock()
	defer s3Clients.Unlock()
	var sum StoreStats
	for _, b := range s3Clients.byBucket {
		s := b.counters.Stats()
		sum.Lists += s.Lists
		sum.Stats += s.Stats
		sum.Gets += s.Gets
		sum.Puts += s.Puts
		sum.Conditional += s.Conditional
		sum.Deletes += s.Deletes
		sum.BytesRead += s.BytesRead
		sum.BytesWritten += s.BytesWritten
		sum.BytesListed += s.BytesListed
	}
	return sum
}

type s3Bucket struct {
	client   *s3.Client
	atomic   bool
	probeErr error
	counters *storeCounters
}

// S3Location splits "s3://bucket/prefix" (or s3a://) into the bucket and
// the prefix.
func S3Location(uri string) (bucket, prefix string, err error) {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || (scheme != "s3" && scheme != "s3a") {
		return "", "", fmt.Errorf("%w: %q is not an s3:// location", ErrUnsupportedStore, uri)
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", fmt.Errorf("%w: %q names no bucket (write s3://bucket/prefix)", ErrUnsupportedStore, uri)
	}
	if prefix, err = CleanKey(prefix); err != nil {
		return "", "", fmt.Errorf("%w: %q: %v", ErrUnsupportedStore, uri, err)
	}
	return bucket, prefix, nil
}

// OpenS3Store returns the store of an s3:// location, configured from the
// AWS configuration chain. The first open of a bucket in a process checks
// that the server honours If-None-Match (see S3Store).
func OpenS3Store(ctx context.Context, uri string) (*S3Store, error) {
	bucket, prefix, err := S3Location(uri)
	if err != nil {
		return nil, err
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: the AWS configuration cannot be loaded: %v", ErrStoreAccess, uri, err)
	}
	if cfg.Region == "" {
		// S3 needs a region to sign requests; the SDK's chain found none.
		cfg.Region = "us-east-1"
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		// S3-compatible servers often send no checksum; the SDK would log
		// a line per such response.
		o.DisableLogOutputChecksumValidationSkipped = true
		o.APIOptions = traceOption(o.APIOptions)
		if o.BaseEndpoint != nil && os.Getenv("LAKTORY_S3_VIRTUAL_HOSTED") != "1" {
			o.UsePathStyle = true
		}
	})
	endpoint := "aws"
	if ep := client.Options().BaseEndpoint; ep != nil {
		endpoint = *ep
	}
	key := endpoint + "|" + cfg.Region + "|" + bucket
	s3Clients.Lock()
	b := s3Clients.byBucket[key]
	s3Clients.Unlock()
	if b == nil {
		b = &s3Bucket{client: client, counters: &storeCounters{}}
		st := &S3Store{client: client, bucket: bucket, prefix: prefix, storeCounters: b.counters}
		b.atomic, b.probeErr = st.probeConditionalWrite(ctx)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(b.probeErr, errNoSuchBucket) {
			return nil, b.probeErr
		}
		s3Clients.Lock()
		if prev := s3Clients.byBucket[key]; prev != nil {
			b = prev
		} else {
			s3Clients.byBucket[key] = b
		}
		s3Clients.Unlock()
	}
	return &S3Store{client: b.client, bucket: bucket, prefix: prefix, atomic: b.atomic, probeErr: b.probeErr,
		partSize: 16 << 20, multipartThreshold: 64 << 20, storeCounters: b.counters}, nil
}

// probeRacers is how many conditional writes of one new key the probe
// sends at once.
const probeRacers = 4

// probeConditionalWrite checks that the server honours If-None-Match: *
// and that its check is atomic, then deletes its probe objects. A probe
// object is written twice with the header: the second write must be
// refused (a server that ignores the header replaces the object). Then
// probeRacers writers create a second probe object at once: exactly one
// may succeed (a server whose conditional write is a lookup then a write,
// as moto's is, may let several through; such a race is caught only when
// it happens, so a probe that passes proves no atomicity, while one that
// fails proves its absence).
func (s *S3Store) probeConditionalWrite(ctx context.Context) (bool, error) {
	// The probe's requests are the store's like any other (StatsOf): a
	// bucket's first open costs them.
	put := func(key, body string) error {
		s.conditional.Add(1)
		_, err := s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &s.bucket, Key: &key,
			Body: strings.NewReader(body), ContentLength: aws.Int64(int64(len(body))), IfNoneMatch: aws.String("*")})
		if err == nil {
			s.bytesWritten.Add(int64(len(body)))
		}
		return err
	}
	del := func(key string) {
		s.deletes.Add(1)
		s.client.DeleteObject(context.WithoutCancel(ctx), &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key}) //nolint:errcheck // a probe left behind is harmless
	}
	key := JoinKey(s.prefix, ".laktory-put-if-absent-probe-"+uuid.NewString())
	if err := put(key, "1"); err != nil {
		return false, s.mapErr("put-if-absent probe", key, err)
	}
	defer del(key)
	err := put(key, "2")
	if err == nil {
		return false, fmt.Errorf("s3://%s/%s: a second PutObject with If-None-Match: * replaced the object: the server ignores conditional writes", s.bucket, key)
	}
	if !isPreconditionFailed(err) {
		return false, s.mapErr("put-if-absent probe", key, err)
	}

	// A round where every racer is refused with 409 (S3's answer to a
	// conditional write while another is in flight) proves nothing: it
	// is raced again on a new key.
	var raced string
	for round := 1; ; round++ {
		raced = JoinKey(s.prefix, ".laktory-put-if-absent-probe-"+uuid.NewString())
		n, err := s.raceProbe(put, raced)
		if n > 0 {
			defer del(raced)
		}
		switch {
		case n > 1:
			return false, fmt.Errorf("s3://%s/%s: %d of %d PutObject requests with If-None-Match: * sent at once for one new key succeeded: the server's conditional writes are not atomic",
				s.bucket, raced, n, probeRacers)
		case err != nil:
			return false, s.mapErr("put-if-absent probe", raced, err)
		case n == 1:
			return true, nil
		case round == probeRounds:
			return false, fmt.Errorf("s3://%s/%s: in %d rounds of %d PutObject requests with If-None-Match: * sent at once for a new key, none succeeded", s.bucket, raced, probeRounds, probeRacers)
		}
	}
}

// probeRounds is how many races of the probe may end with no winner.
const probeRounds = 3

// raceProbe sends probeRacers conditional writes of key at once and
// returns how many succeeded, and an error other than a refusal (412, or
// 409 for a conditional write in flight).
func (s *S3Store) raceProbe(put func(key, body string) error, key string) (int, error) {
	var (
		wins   atomic.Int32
		mu     sync.Mutex
		other  error
		racers sync.WaitGroup
	)
	for i := range probeRacers {
		racers.Add(1)
		go func() {
			defer racers.Done()
			err := put(key, strconv.Itoa(i))
			switch {
			case err == nil:
				wins.Add(1)
			case isPreconditionFailed(err) || httpStatus(err) == http.StatusConflict:
			default:
				mu.Lock()
				other = err
				mu.Unlock()
			}
		}()
	}
	racers.Wait()
	return int(wins.Load()), other
}

func (s *S3Store) fullKey(key string) (string, error) {
	k, err := CleanKey(key)
	if err != nil {
		return "", err
	}
	return JoinKey(s.prefix, k), nil
}

func (s *S3Store) relKey(full string) string {
	if s.prefix == "" {
		return full
	}
	return strings.TrimPrefix(full, s.prefix+"/")
}

// URI is "s3://bucket/prefix/key".
func (s *S3Store) URI(key string) string {
	k, err := s.fullKey(key)
	if err != nil {
		k = JoinKey(s.prefix, key)
	}
	return "s3://" + s.bucket + "/" + k
}

// Bucket is the store's bucket; Prefix its key prefix.
func (s *S3Store) Bucket() string { return s.bucket }

// Prefix is the store's key prefix in its bucket ("" for the whole bucket).
func (s *S3Store) Prefix() string { return s.prefix }

// Capabilities: remote; AtomicPutIfAbsent when the probe passed.
func (s *S3Store) Capabilities() Capabilities {
	return Capabilities{AtomicPutIfAbsent: s.atomic}
}

// CheckWritable explains why the store is not writable, naming the
// probe's failure.
func (s *S3Store) CheckWritable() error {
	if s.atomic {
		return nil
	}
	return fmt.Errorf("%w: %s: the check of conditional writes failed (%v); two writers could both commit the same version and one would be lost; "+
		"use a server with conditional writes (S3, MinIO, moto) or configure a commit lock (lock: local, safe only when every writer runs on this machine)",
		ErrPutIfAbsentUnsupported, s.URI(""), s.probeErr)
}

// List lists the objects under dir with ListObjectsV2, page by page.
func (s *S3Store) List(ctx context.Context, dir string, opts ListOptions) ([]ObjectInfo, error) {
	d, err := s.fullKey(dir)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if d != "" {
		prefix = d + "/"
	}
	in := &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &prefix}
	if !opts.Recursive {
		in.Delimiter = aws.String("/")
	}
	if opts.StartAfter != "" {
		in.StartAfter = aws.String(prefix + opts.StartAfter)
	}
	var out []ObjectInfo
	p := s3.NewListObjectsV2Paginator(s.client, in)
	for p.HasMorePages() {
		s.lists.Add(1)
		page, err := p.NextPage(ctx, s.countListing)
		if err != nil {
			return nil, s.mapErr("list", prefix, err)
		}
		for _, o := range page.Contents {
			if o.Key == nil || strings.HasSuffix(*o.Key, "/") {
				continue // a "folder" marker
			}
			out = append(out, ObjectInfo{Key: s.relKey(*o.Key), Size: aws.ToInt64(o.Size),
				ModTime: aws.ToTime(o.LastModified), ETag: aws.ToString(o.ETag)})
		}
	}
	return out, nil
}

// countListing counts the bytes of a listing's response body (its XML) as
// the SDK reads them, into the bytes read and listed.
func (s *S3Store) countListing(o *s3.Options) {
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		return st.Deserialize.Add(middleware.DeserializeMiddlewareFunc("laktoryCountListing",
			func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleDeserialize(ctx, in)
				if resp, ok := out.RawResponse.(*smithyhttp.Response); ok && resp != nil && resp.Body != nil {
					resp.Body = &countingBody{ReadCloser: resp.Body, counters: s.storeCounters}
				}
				return out, md, err
			}), middleware.After)
	})
}

// countingBody counts what is read of a listing's body.
type countingBody struct {
	io.ReadCloser
	counters *storeCounters
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.counters.bytesRead.Add(int64(n))
	b.counters.bytesListed.Add(int64(n))
	return n, err
}

// Stat is HeadObject.
func (s *S3Store) Stat(ctx context.Context, key string) (ObjectInfo, error) {
	k, err := s.fullKey(key)
	if err != nil {
		return ObjectInfo{}, err
	}
	s.stats.Add(1)
	h, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &k})
	if err != nil {
		return ObjectInfo{}, s.mapErr("head", k, err)
	}
	return ObjectInfo{Key: s.relKey(k), Size: aws.ToInt64(h.ContentLength), ModTime: aws.ToTime(h.LastModified), ETag: aws.ToString(h.ETag)}, nil
}

// Get reads a whole object.
func (s *S3Store) Get(ctx context.Context, key string) ([]byte, error) {
	return s.ReadRange(ctx, key, 0, -1)
}

// ReadRange is GetObject with a Range header.
func (s *S3Store) ReadRange(ctx context.Context, key string, off, n int64) ([]byte, error) {
	if off < 0 {
		return nil, fmt.Errorf("read %s: negative offset %d", key, off)
	}
	if n == 0 {
		return nil, nil
	}
	k, err := s.fullKey(key)
	if err != nil {
		return nil, err
	}
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &k}
	switch {
	case n > 0:
		in.Range = aws.String(fmt.Sprintf("bytes=%d-%d", off, off+n-1))
	case off > 0:
		in.Range = aws.String(fmt.Sprintf("bytes=%d-", off))
	}
	s.gets.Add(1)
	o, err := s.client.GetObject(ctx, in)
	if err != nil {
		if httpStatus(err) == http.StatusRequestedRangeNotSatisfiable {
			return nil, nil // the range starts at or after the end
		}
		return nil, s.mapErr("get", k, err)
	}
	defer o.Body.Close()
	b, err := io.ReadAll(o.Body)
	s.bytesRead.Add(int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("read s3://%s/%s: %w", s.bucket, k, err)
	}
	return b, nil
}

// Download streams an object to localPath (through a temporary file and a
// rename, so a cut download leaves no partial file under the name).
func (s *S3Store) Download(ctx context.Context, key, localPath string) (ObjectInfo, error) {
	k, err := s.fullKey(key)
	if err != nil {
		return ObjectInfo{}, err
	}
	s.gets.Add(1)
	o, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &k})
	if err != nil {
		return ObjectInfo{}, s.mapErr("get", k, err)
	}
	defer o.Body.Close()
	if err := os.MkdirAll(filepath.Dir(localPath), 0o755); err != nil {
		return ObjectInfo{}, err
	}
	n, err := writeLocalFile(localPath, o.Body)
	s.bytesRead.Add(n)
	if err != nil {
		return ObjectInfo{}, fmt.Errorf("download s3://%s/%s to %s: %w", s.bucket, k, localPath, err)
	}
	info := ObjectInfo{Key: s.relKey(k), Size: aws.ToInt64(o.ContentLength), ModTime: aws.ToTime(o.LastModified), ETag: aws.ToString(o.ETag)}
	if info.Size != n {
		RemoveFile(localPath) //nolint:errcheck // best effort: a short file must not stay
		return ObjectInfo{}, fmt.Errorf("download s3://%s/%s: got %d bytes of %d", s.bucket, k, n, info.Size)
	}
	return info, nil
}

// Put uploads body: one PutObject up to the multipart threshold, a
// multipart upload above it (completed, or aborted on any failure, so no
// partial object is ever visible).
func (s *S3Store) Put(ctx context.Context, key string, body io.ReadSeeker, size int64) error {
	k, err := s.fullKey(key)
	if err != nil {
		return err
	}
	if size > s.multipartThreshold && s.multipartThreshold > 0 {
		return s.putMultipart(ctx, k, body, size)
	}
	_, err = s.putOne(ctx, k, body, size)
	return err
}

// putETag is Put of an object below the multipart threshold, returning
// its ETag (the log keeps what it wrote under it: keepWritten).
func (s *S3Store) putETag(ctx context.Context, key string, data []byte) (string, error) {
	k, err := s.fullKey(key)
	if err != nil {
		return "", err
	}
	return s.putOne(ctx, k, bytes.NewReader(data), int64(len(data)))
}

func (s *S3Store) putOne(ctx context.Context, k string, body io.ReadSeeker, size int64) (string, error) {
	s.puts.Add(1)
	out, err := s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &s.bucket, Key: &k, Body: body, ContentLength: aws.Int64(size)})
	if err != nil {
		return "", s.mapErr("put", k, err)
	}
	s.bytesWritten.Add(size)
	return aws.ToString(out.ETag), nil
}

func (s *S3Store) putMultipart(ctx context.Context, k string, body io.ReadSeeker, size int64) error {
	s.puts.Add(1)
	up, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &s.bucket, Key: &k})
	if err != nil {
		return s.mapErr("put", k, err)
	}
	abort := func(cause error) error {
		s.puts.Add(1)
		s.client.AbortMultipartUpload(context.WithoutCancel(ctx), &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: &k, UploadId: up.UploadId}) //nolint:errcheck // the upload is lost either way
		return cause
	}
	var parts []types.CompletedPart
	buf := make([]byte, s.partSize)
	for num, done := int32(1), int64(0); done < size; num++ {
		if err := ctx.Err(); err != nil {
			return abort(err)
		}
		n, err := io.ReadFull(body, buf[:min(s.partSize, size-done)])
		if err != nil {
			return abort(fmt.Errorf("put s3://%s/%s: reading part %d: %w", s.bucket, k, num, err))
		}
		s.puts.Add(1)
		p, err := s.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: &s.bucket, Key: &k, UploadId: up.UploadId,
			PartNumber: aws.Int32(num), Body: bytes.NewReader(buf[:n]), ContentLength: aws.Int64(int64(n))})
		if err != nil {
			return abort(s.mapErr("put part", k, err))
		}
		parts = append(parts, types.CompletedPart{ETag: p.ETag, PartNumber: aws.Int32(num)})
		done += int64(n)
		s.bytesWritten.Add(int64(n))
		FailPoint(FailUploadPart)
	}
	s.puts.Add(1)
	_, err = s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &s.bucket, Key: &k, UploadId: up.UploadId,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}})
	if err != nil {
		return abort(s.mapErr("put", k, err))
	}
	return nil
}

// conditionalRetries bounds the retries of a conditional write that S3
// answered with 409 ConditionalRequestConflict (another conditional write
// of the key was in flight: either may win, so the request is retried
// until it is accepted or refused with 412).
const conditionalRetries = 8

// PutIfAbsent is PutObject with If-None-Match: *.
func (s *S3Store) PutIfAbsent(ctx context.Context, key string, data []byte) error {
	_, err := s.putIfAbsentETag(ctx, key, data)
	return err
}

// putIfAbsentETag is PutIfAbsent, returning the new object's ETag (the
// log keeps what it wrote under it: keepWritten).
func (s *S3Store) putIfAbsentETag(ctx context.Context, key string, data []byte) (string, error) {
	if !s.atomic {
		return "", s.CheckWritable()
	}
	k, err := s.fullKey(key)
	if err != nil {
		return "", err
	}
	pause := 20 * time.Millisecond
	for try := 0; ; try++ {
		s.conditional.Add(1)
		out, err := s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &s.bucket, Key: &k, Body: bytes.NewReader(data),
			ContentLength: aws.Int64(int64(len(data))), IfNoneMatch: aws.String("*")})
		if err == nil {
			s.bytesWritten.Add(int64(len(data)))
			return aws.ToString(out.ETag), nil
		}
		if isPreconditionFailed(err) {
			return "", fmt.Errorf("s3://%s/%s: %w", s.bucket, k, ErrObjectExists)
		}
		if httpStatus(err) != http.StatusConflict || try >= conditionalRetries {
			return "", s.mapErr("put-if-absent", k, err)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 500*time.Millisecond)
	}
}

// GetVersion is GetObject, returning the object's ETag with its bytes.
func (s *S3Store) GetVersion(ctx context.Context, key string) ([]byte, string, error) {
	k, err := s.fullKey(key)
	if err != nil {
		return nil, "", err
	}
	s.gets.Add(1)
	o, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &k})
	if err != nil {
		return nil, "", s.mapErr("get", k, err)
	}
	defer o.Body.Close()
	b, err := io.ReadAll(o.Body)
	s.bytesRead.Add(int64(len(b)))
	if err != nil {
		return nil, "", fmt.Errorf("read s3://%s/%s: %w", s.bucket, k, err)
	}
	return b, aws.ToString(o.ETag), nil
}

// PutVersion is PutObject with If-None-Match: * (ifMatch "") or If-Match:
// ifMatch (S3 has honoured If-Match on PutObject since November 2024; a
// 412, or a 404 for a key gone, is ErrObjectChanged). A 409 (another
// conditional write of the key in flight) is retried as PutIfAbsent does.
func (s *S3Store) PutVersion(ctx context.Context, key string, data []byte, ifMatch string) (string, error) {
	if !s.atomic {
		return "", s.CheckWritable()
	}
	k, err := s.fullKey(key)
	if err != nil {
		return "", err
	}
	pause := 20 * time.Millisecond
	for try := 0; ; try++ {
		in := &s3.PutObjectInput{Bucket: &s.bucket, Key: &k, Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data)))}
		if ifMatch == "" {
			in.IfNoneMatch = aws.String("*")
		} else {
			in.IfMatch = aws.String(ifMatch)
		}
		s.conditional.Add(1)
		out, err := s.client.PutObject(ctx, in)
		if err == nil {
			s.bytesWritten.Add(int64(len(data)))
			return aws.ToString(out.ETag), nil
		}
		switch {
		case isPreconditionFailed(err) && ifMatch == "":
			return "", fmt.Errorf("s3://%s/%s: %w", s.bucket, k, ErrObjectExists)
		case isPreconditionFailed(err) || (ifMatch != "" && errors.Is(s.mapErr("put", k, err), ErrObjectNotFound)):
			return "", fmt.Errorf("s3://%s/%s: %w", s.bucket, k, ErrObjectChanged)
		case httpStatus(err) != http.StatusConflict || try >= conditionalRetries:
			return "", s.mapErr("conditional put", k, err)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 500*time.Millisecond)
	}
}

// Delete is DeleteObject (S3 answers success for a missing key).
func (s *S3Store) Delete(ctx context.Context, key string) error {
	k, err := s.fullKey(key)
	if err != nil {
		return err
	}
	s.deletes.Add(1)
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &k}); err != nil {
		if errors.Is(s.mapErr("delete", k, err), ErrObjectNotFound) {
			return nil
		}
		return s.mapErr("delete", k, err)
	}
	return nil
}

// mapErr turns an SDK error into the store's sentinels, naming the
// object and, for refusals, what to check.
func (s *S3Store) mapErr(op, k string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	uri := "s3://" + s.bucket + "/" + k
	var api smithy.APIError
	code := ""
	if errors.As(err, &api) {
		code = api.ErrorCode()
	}
	switch st := httpStatus(err); {
	case code == "NoSuchKey" || code == "NotFound" || (st == http.StatusNotFound && code != "NoSuchBucket"):
		return fmt.Errorf("%s %s: %w", op, uri, ErrObjectNotFound)
	case code == "NoSuchBucket":
		return fmt.Errorf("%s %s: %w: %w: the bucket %s does not exist (create it, or check AWS_ENDPOINT_URL_S3 and the region)", op, uri, ErrStoreAccess, errNoSuchBucket, s.bucket)
	case st == http.StatusForbidden || st == http.StatusUnauthorized || code == "AccessDenied" || code == "InvalidAccessKeyId" || code == "SignatureDoesNotMatch":
		return fmt.Errorf("%s %s: %w (%s): check the AWS credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID, ~/.aws/credentials) and the bucket's policy", op, uri, ErrStoreAccess, firstLine(err.Error()))
	}
	return fmt.Errorf("%s %s: %w", op, uri, err)
}

// errNoSuchBucket marks the refusals of a missing bucket: OpenS3Store
// fails at once on them.
var errNoSuchBucket = errors.New("no such bucket")

func isPreconditionFailed(err error) bool {
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "PreconditionFailed" {
		return true
	}
	return httpStatus(err) == http.StatusPreconditionFailed
}

func httpStatus(err error) int {
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
