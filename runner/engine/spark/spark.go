// Package spark is the Spark engine: a run's relations and table writes
// execute on Apache Spark through Spark Connect (sc://host:port), with
// Delta Lake's SQL. Spark reads the sources by format and runs the
// transformer's Spark SQL natively; the runner keeps planning, ownership,
// retries, checkpoints, locks, intents and history, and reads the Delta
// logs in Go (the lake is a path both see).
//
// What the Go client of Spark Connect lacks is done with SQL and two
// protocol calls of its own: writer options are session configurations
// (spark.databricks.delta.write.txnAppId/txnVersion for exactly-once
// batches, commitInfo.userMetadata to find the commit in DESCRIBE
// HISTORY), and a cancelled context sends Spark Connect's Interrupt for the
// task's server-side session, which stops its jobs (cancelling the gRPC
// stream alone leaves them running).
package spark

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/spark-connect-go/spark/client/channel"
	"github.com/apache/spark-connect-go/spark/sparkerrors"
	"github.com/apache/spark-connect-go/spark/sql"
	"github.com/apache/spark-connect-go/spark/sql/types"
	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
)

// Versions the engine works with: Delta 4.4 is built for Spark 4.2 (no
// Delta release reads tables on Spark 4.3).
const (
	SparkVersion = "4.2"
	DeltaVersion = "4.4"
)

// Errors of the engine.
var (
	// ErrConnect: the Spark Connect server cannot be reached or used.
	ErrConnect = errors.New("spark connect")
	// ErrVersion: the server runs versions the engine does not support.
	ErrVersion = errors.New("unsupported Spark or Delta version")
)

// Engine runs on one Spark Connect server.
type Engine struct {
	remote string
	info   engine.Info
	// admin runs what belongs to no task (dropping shared relations).
	adminMu sync.Mutex
	admin   *Session
	// buckets are the s3a options of the buckets of the lake, by bucket.
	bucketsMu sync.Mutex
	buckets   map[string]map[string]string
	// s3Err says why the server cannot write a lake in a bucket (nil: it
	// can).
	s3Err error
}

// Open connects to the Spark Connect server at remote (sc://host:port),
// checks that it runs Spark 4.2.x with Delta 4.4.x, and returns the
// engine.
func Open(ctx context.Context, remote string) (*Engine, error) {
	if err := checkRemote(remote); err != nil {
		return nil, err
	}
	e := &Engine{remote: remote}
	s, err := e.open(ctx)
	if err != nil {
		return nil, err
	}
	sv, dv, err := s.versions(ctx)
	if err != nil {
		s.Close() //nolint:errcheck
		return nil, fmt.Errorf("%w: %s: %w", ErrConnect, remote, err)
	}
	if err := checkVersions(sv, dv); err != nil {
		s.Close() //nolint:errcheck
		return nil, fmt.Errorf("%s: %w", remote, err)
	}
	e.admin = s
	e.info = engine.Info{Name: engine.Spark, Remote: remote, Version: "Spark " + sv + ", Delta " + dv}
	if e.s3Err = checkS3(ctx, s, remote); e.s3Err != nil {
		if ctx.Err() != nil {
			s.Close() //nolint:errcheck
			return nil, ctx.Err()
		}
		e.info.BucketLake = e.s3Err.Error()
	}
	return e, nil
}

// checkRemote checks a Spark Connect address.
func checkRemote(remote string) error {
	if err := workspace.CheckSparkRemote(remote); err != nil {
		return fmt.Errorf("%w: %w", ErrConnect, err)
	}
	return nil
}

// checkVersions accepts Spark 4.2.x with Delta 4.4.x.
func checkVersions(spark, delta string) error {
	if strings.HasPrefix(spark+".", SparkVersion+".") && strings.HasPrefix(delta+".", DeltaVersion+".") {
		return nil
	}
	return fmt.Errorf("%w: the server runs Spark %s with Delta %s; the Spark engine needs Spark %s.x with Delta %s.x (delta-spark %s.x is built for Spark %s)",
		ErrVersion, spark, orUnknown(delta), SparkVersion, DeltaVersion, DeltaVersion, SparkVersion)
}

func orUnknown(s string) string {
	if s == "" {
		return "(none: the server has no Delta Lake)"
	}
	return s
}

// Info implements engine.Engine.
func (e *Engine) Info() engine.Info { return e.info }

// Remote is the server's address.
func (e *Engine) Remote() string { return e.remote }

// Close implements engine.Engine.
func (e *Engine) Close() error {
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	if e.admin == nil {
		return nil
	}
	err := e.admin.Close()
	e.admin = nil
	return err
}

// Unshare implements engine.Engine.
func (e *Engine) Unshare(ctx context.Context, rel string) error {
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	if e.admin == nil {
		return nil
	}
	return errors.Join(e.admin.Exec(ctx, "UNCACHE TABLE IF EXISTS "+rel), e.admin.Exec(ctx, "DROP VIEW IF EXISTS "+rel))
}

// Open implements engine.Engine: a server-side session of its own, so
// that its configuration (the application transaction of a write) and its
// interruption concern this task only.
func (e *Engine) Open(ctx context.Context) (engine.Session, error) { return e.open(ctx) }

func (e *Engine) open(ctx context.Context) (*Session, error) {
	cb, err := channel.NewBuilder(e.remote)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConnect, e.remote, err)
	}
	u, _ := url.Parse(e.remote)
	b := &builder{Builder: cb, addr: u.Host}
	ss, err := sql.NewSessionBuilder().WithChannelBuilder(b).Build(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConnect, e.remote, err)
	}
	s := &Session{ss: ss, b: b, remote: e.remote, e: e}
	// Identifiers in double quotes, as the runner writes them; schema
	// evolution on append, as the local engine's MergeSchema.
	for k, v := range map[string]string{
		"spark.sql.ansi.doubleQuotedIdentifiers":          "true",
		"spark.databricks.delta.schema.autoMerge.enabled": "true",
	} {
		if err := s.set(ctx, k, v); err != nil {
			s.Close() //nolint:errcheck
			return nil, fmt.Errorf("%w: %s: %w", ErrConnect, e.remote, err)
		}
	}
	return s, nil
}

// builder dials the server like the client's own builder, and watches the
// requests for the server-side session id (the client keeps it private),
// which Interrupt and ReleaseSession name.
type builder struct {
	channel.Builder
	addr      string
	mu        sync.Mutex
	conn      *grpc.ClientConn
	sessionID string
}

// Build implements channel.Builder.
func (b *builder) Build(ctx context.Context) (*grpc.ClientConn, error) {
	conn, err := grpc.NewClient(b.addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			b.observe(req)
			return invoker(ctx, method, req, reply, cc, opts...)
		}),
		grpc.WithStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
			cs, err := streamer(ctx, desc, cc, method, opts...)
			if err != nil {
				return nil, err
			}
			return &observedStream{ClientStream: cs, b: b}, nil
		}))
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.conn = conn
	b.mu.Unlock()
	return conn, nil
}

type observedStream struct {
	grpc.ClientStream
	b *builder
}

func (s *observedStream) SendMsg(m any) error {
	s.b.observe(m)
	return s.ClientStream.SendMsg(m)
}

// observe keeps the session id of a request.
func (b *builder) observe(m any) {
	pm, ok := m.(proto.Message)
	if !ok {
		return
	}
	r := pm.ProtoReflect()
	fd := r.Descriptor().Fields().ByName("session_id")
	if fd == nil || fd.Kind() != protoreflect.StringKind {
		return
	}
	if id := r.Get(fd).String(); id != "" {
		b.mu.Lock()
		b.sessionID = id
		b.mu.Unlock()
	}
}

func (b *builder) state() (*grpc.ClientConn, string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.conn, b.sessionID
}

// call sends a request of Spark Connect's service built by name (the
// client's generated types are internal to it), e.g. Interrupt.
func (b *builder) call(ctx context.Context, rpc string, fields map[string]any) error {
	conn, id := b.state()
	if conn == nil || id == "" {
		return nil // nothing was sent: no server-side session to address
	}
	req, err := newMessage("spark.connect." + rpc + "Request")
	if err != nil {
		return err
	}
	resp, err := newMessage("spark.connect." + rpc + "Response")
	if err != nil {
		return err
	}
	r := req.ProtoReflect()
	set := func(name string, v any) {
		fd := r.Descriptor().Fields().ByName(protoreflect.Name(name))
		switch x := v.(type) {
		case string:
			r.Set(fd, protoreflect.ValueOfString(x))
		case int:
			r.Set(fd, protoreflect.ValueOfEnum(protoreflect.EnumNumber(x)))
		}
	}
	set("session_id", id)
	uc := r.Mutable(r.Descriptor().Fields().ByName("user_context")).Message()
	uc.Set(uc.Descriptor().Fields().ByName("user_id"), protoreflect.ValueOfString(b.User()))
	for k, v := range fields {
		set(k, v)
	}
	return conn.Invoke(ctx, "/spark.connect.SparkConnectService/"+rpc, req, resp)
}

// execute runs a Spark Connect command given as protojson
// (spark.connect.Command) in the server-side session, as ExecutePlan
// does, reading the response stream to its end: what the client's
// DataFrame API cannot say (a reader of several paths).
func (b *builder) execute(ctx context.Context, command map[string]any) error {
	conn, id := b.state()
	if conn == nil || id == "" {
		return fmt.Errorf("%w: no server-side session to run the command in", ErrConnect)
	}
	req, err := newMessage("spark.connect.ExecutePlanRequest")
	if err != nil {
		return err
	}
	js, err := json.Marshal(map[string]any{
		"sessionId":   id,
		"userContext": map[string]any{"userId": b.User()},
		"operationId": uuid.NewString(),
		"plan":        map[string]any{"command": command},
	})
	if err != nil {
		return err
	}
	if err := protojson.Unmarshal(js, req); err != nil {
		return fmt.Errorf("spark connect: ExecutePlanRequest: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/spark.connect.SparkConnectService/ExecutePlan")
	if err != nil {
		return sparkerrors.WithType(sparkerrors.FromRPCError(err), sparkerrors.ExecutionError)
	}
	if err := st.SendMsg(req); err != nil {
		return sparkerrors.WithType(sparkerrors.FromRPCError(err), sparkerrors.ExecutionError)
	}
	if err := st.CloseSend(); err != nil {
		return err
	}
	for {
		resp, err := newMessage("spark.connect.ExecutePlanResponse")
		if err != nil {
			return err
		}
		switch err := st.RecvMsg(resp); {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return sparkerrors.WithType(sparkerrors.FromRPCError(err), sparkerrors.ExecutionError)
		}
	}
}

func newMessage(name string) (proto.Message, error) {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(name))
	if err != nil {
		return nil, fmt.Errorf("spark connect: %s: %w", name, err)
	}
	return mt.New().Interface(), nil
}

// interruptAll is InterruptRequest.INTERRUPT_TYPE_ALL.
const interruptAll = 1

// Session is a task's server-side Spark session.
type Session struct {
	ss     sql.SparkSession
	b      *builder
	remote string
	e      *Engine
	// buckets are the buckets whose s3a options the session has.
	buckets map[string]bool
	// views are the temporary views made, to drop at Close.
	views []string
	n     int
}

// guard runs f; when ctx is cancelled meanwhile, it interrupts every
// operation of the session on the server, so no job of it keeps running.
func (s *Session) guard(ctx context.Context, f func(context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-ctx.Done():
			s.Interrupt()
		case <-done:
		}
	}()
	err := f(ctx)
	close(done)
	<-stopped
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return classify(err)
}

// Interrupt stops every operation of the session on the server.
func (s *Session) Interrupt() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.b.call(ctx, "Interrupt", map[string]any{"interrupt_type": interruptAll}) //nolint:errcheck // best effort: the server may be gone
}

func (s *Session) set(ctx context.Context, key, value string) error {
	return s.guard(ctx, func(ctx context.Context) error { return s.ss.Config().Set(ctx, key, value) })
}

func (s *Session) unset(ctx context.Context, key string) error {
	return s.guard(ctx, func(ctx context.Context) error { return s.ss.Config().Unset(ctx, key) })
}

// Exec implements engine.Session.
func (s *Session) Exec(ctx context.Context, stmt string) error {
	return s.guard(ctx, func(ctx context.Context) error {
		df, err := s.ss.Sql(ctx, stmt)
		if err != nil {
			return err
		}
		// A query is only planned by Sql: run it (a command ran already).
		_, err = df.Collect(ctx)
		return err
	})
}

// rows runs a query and returns its rows.
func (s *Session) rows(ctx context.Context, query string) ([][]any, error) {
	rs, _, err := s.named(ctx, query)
	return rs, err
}

// named runs a query and returns its rows and column names.
func (s *Session) named(ctx context.Context, query string) ([][]any, []string, error) {
	var out [][]any
	var names []string
	err := s.guard(ctx, func(ctx context.Context) error {
		df, err := s.ss.Sql(ctx, query)
		if err != nil {
			return err
		}
		rs, err := df.Collect(ctx)
		if err != nil {
			return err
		}
		for _, r := range rs {
			out = append(out, r.Values())
		}
		if len(rs) > 0 {
			names, err = fieldNames(rs[0])
		}
		return err
	})
	return out, names, err
}

// fieldNames returns a row's column names. The client keys a row's
// columns by name, and its FieldNames panics when two columns share one
// (SELECT count(*), count(*)): that is an error naming the cause here.
func fieldNames(r types.Row) (names []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			names, err = nil, fmt.Errorf("spark: the query's %d columns do not have distinct names: %v", r.Len(), p)
		}
	}()
	return r.FieldNames(), nil
}

// QueryRow implements engine.Session.
func (s *Session) QueryRow(ctx context.Context, query string, dest ...any) error {
	rs, err := s.rows(ctx, query)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return fmt.Errorf("spark: no row: %s", query)
	}
	return scan(rs[0], dest)
}

// Describe implements engine.Session.
func (s *Session) Describe(ctx context.Context, query string) ([]engine.Column, error) {
	var out []engine.Column
	err := s.guard(ctx, func(ctx context.Context) error {
		df, err := s.ss.Sql(ctx, query)
		if err != nil {
			return err
		}
		st, err := df.Schema(ctx)
		if err != nil {
			return err
		}
		for _, f := range st.Fields {
			out = append(out, engine.Column{Name: f.Name, Type: f.DataType.TypeName()})
		}
		return nil
	})
	if err != nil || !slices.ContainsFunc(out, func(c engine.Column) bool { return c.Type == "Decimal" }) {
		return out, err
	}
	// The client's schema drops a decimal's precision and scale: Spark's
	// DESCRIBE QUERY names them (decimal(10,2)).
	rs, err := s.rows(ctx, "DESCRIBE QUERY "+query)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Type != "Decimal" || i >= len(rs) || len(rs[i]) < 2 {
			continue
		}
		if name, _ := rs[i][0].(string); name == out[i].Name {
			if dt, _ := rs[i][1].(string); strings.HasPrefix(dt, "decimal(") {
				out[i].Type = "Decimal" + strings.TrimPrefix(dt, "decimal")
			}
		}
	}
	return out, nil
}

// CreateView implements engine.Session.
func (s *Session) CreateView(ctx context.Context, name, query string) error {
	if err := s.Exec(ctx, "CREATE OR REPLACE TEMPORARY VIEW "+quoteIdent(name)+" AS "+query); err != nil {
		return err
	}
	s.views = append(s.views, name)
	return nil
}

// CreateTable implements engine.Session: a cached temporary view, computed
// once (CACHE TABLE is eager).
func (s *Session) CreateTable(ctx context.Context, name, query string) error {
	if err := s.Exec(ctx, "CACHE TABLE "+quoteIdent(name)+" AS "+query); err != nil {
		return err
	}
	s.views = append(s.views, name)
	return nil
}

// Share implements engine.Session: a cached global temporary view, which
// every session of the server reads. The view keeps its analyzed plan
// (spark.sql.legacy.storeAnalyzedPlanForView, for this statement only):
// Spark 4.2 otherwise keeps its SQL text and resolves it again in the
// reading session, where the temporary views of this one (a node's
// steps) do not exist (TABLE_OR_VIEW_NOT_FOUND).
func (s *Session) Share(ctx context.Context, name, query string) (string, error) {
	rel := "global_temp." + quoteIdent(name)
	if err := s.Exec(ctx, "SET spark.sql.legacy.storeAnalyzedPlanForView=true"); err != nil {
		return "", err
	}
	err := s.Exec(ctx, "CREATE OR REPLACE GLOBAL TEMPORARY VIEW "+quoteIdent(name)+" AS "+query)
	if rerr := s.Exec(ctx, "RESET spark.sql.legacy.storeAnalyzedPlanForView"); err == nil {
		err = rerr
	}
	if err != nil {
		return "", err
	}
	if err := s.Exec(ctx, "CACHE TABLE "+rel); err != nil {
		return "", err
	}
	return rel, nil
}

// Close implements engine.Session: it uncaches and drops the session's
// views and releases the server-side session.
func (s *Session) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var errs []error
	for i := len(s.views) - 1; i >= 0; i-- {
		errs = append(errs, s.Exec(ctx, "UNCACHE TABLE IF EXISTS "+quoteIdent(s.views[i])))
	}
	s.views = nil
	errs = append(errs, s.b.call(ctx, "ReleaseSession", nil))
	if conn, _ := s.b.state(); conn != nil {
		errs = append(errs, conn.Close())
	}
	return errors.Join(errs...)
}

// versions returns the server's Spark and Delta versions ("" without
// Delta).
func (s *Session) versions(ctx context.Context) (string, string, error) {
	var v string
	if err := s.QueryRow(ctx, "SELECT version()", &v); err != nil {
		return "", "", err
	}
	spark, _, _ := strings.Cut(v, " ")
	var d string
	if err := s.QueryRow(ctx, "SELECT reflect('io.delta.package', 'VERSION')", &d); err != nil {
		d = ""
	}
	return spark, d, nil
}

// errorClass finds the error class in a message ([CLASS] or
// [CLASS.SUBCLASS]).
var errorClass = regexp.MustCompile(`\[([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)\]`)

// classify gives Delta's commit conflicts the sentinels of package delta,
// so the runner retries them as it retries its own.
func classify(err error) error {
	if err == nil {
		return nil
	}
	class := ""
	var se *sparkerrors.SparkError
	if errors.As(err, &se) && se.ErrorClass != "" {
		class = se.ErrorClass
	} else if m := errorClass.FindStringSubmatch(err.Error()); m != nil {
		class = m[1]
	}
	if sentinel := conflictSentinel(class); sentinel != nil {
		return &Error{Class: class, Err: err, sentinel: sentinel}
	}
	if lostConditionalCommit(err.Error()) {
		// The statement wrote nothing (its commit is the last step): the
		// runner runs it again on the table as it now is, as after
		// Delta's own conflicts.
		return &Error{Class: class, Err: err, sentinel: delta.ErrConcurrentAppend}
	}
	if class != "" {
		return &Error{Class: class, Err: err}
	}
	return err
}

// lostConditionalCommit says whether a message is s3a's refusal of a
// conditional PUT of a commit file (412 Precondition Failed, reported as
// RemoteFileChangedException): another writer committed that version
// between Delta's check and the PUT (store.go).
func lostConditionalCommit(msg string) bool {
	return strings.Contains(msg, "_delta_log/") &&
		(strings.Contains(msg, "RemoteFileChangedException") || strings.Contains(msg, "412") || strings.Contains(msg, "PreconditionFailed"))
}

// Error is an error of the server, with its error class.
type Error struct {
	Class    string
	Err      error
	sentinel error
}

func (e *Error) Error() string {
	// The client writes the class before the server's message, which
	// starts with it too.
	msg := strings.Replace(e.Err.Error(), "["+e.Class+"] ["+e.Class+"]", "["+e.Class+"]", 1)
	return trimError(msg)
}
func (e *Error) Unwrap() []error {
	if e.sentinel == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.sentinel}
}

// trimError drops the client's repeated prefixes and the server's JVM
// stack from a message.
func trimError(msg string) string {
	for _, p := range []string{"execution error: ", "failed to execute sql: "} {
		for strings.Contains(msg, p) {
			msg = strings.Replace(msg, p, "", 1)
		}
	}
	if i := strings.Index(msg, "\n\tat "); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimSpace(msg)
}

// Rows implements engine.Session: Spark builds each row's JSON
// (rowJSON) and sends the batch's rows as Arrow, which the session holds
// in memory until Close.
func (s *Session) Rows(ctx context.Context, query string) (engine.Rows, error) {
	cols, err := s.Describe(ctx, query)
	if err != nil {
		return nil, err
	}
	var tbl arrow.Table
	err = s.guard(ctx, func(ctx context.Context) error {
		df, err := s.ss.Sql(ctx, "SELECT "+rowJSON(cols)+" AS j FROM ("+query+")")
		if err != nil {
			return err
		}
		t, err := df.ToArrow(ctx)
		if t != nil {
			tbl = *t
		}
		return err
	})
	if err != nil {
		if tbl != nil {
			tbl.Release()
		}
		return nil, err
	}
	return &arrowRows{tbl: tbl, col: tbl.Column(0).Data().Chunks()}, nil
}

// arrowRows are the rows of a table of one string column.
type arrowRows struct {
	tbl   arrow.Table
	col   []arrow.Array
	chunk int
	i     int
}

// texts are Arrow's string arrays (Spark sends large ones when
// spark.sql.execution.arrow.useLargeVarTypes is set).
type texts interface {
	arrow.Array
	Value(int) string
}

func (r *arrowRows) Next() ([]byte, error) {
	for r.chunk < len(r.col) {
		a, ok := r.col[r.chunk].(texts)
		if !ok {
			return nil, fmt.Errorf("spark: the rows' JSON came as %s, not strings", r.col[r.chunk].DataType())
		}
		if r.i < a.Len() {
			r.i++
			return []byte(a.Value(r.i - 1)), nil
		}
		r.chunk, r.i = r.chunk+1, 0
	}
	return nil, io.EOF
}

func (r *arrowRows) Close() error {
	r.tbl.Release()
	r.col = nil
	return nil
}

// rowJSON is the Spark SQL expression of a row's JSON as engine.Rows
// describes it, for a relation of columns cols: to_json keeps null
// members and writes timestamps in UTC with microseconds; decimals become
// strings first (to_json would write numbers).
func rowJSON(cols []engine.Column) string {
	if len(cols) == 0 {
		return "'{}'"
	}
	var b strings.Builder
	b.WriteString("to_json(named_struct(")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		x := quoteIdent(c.Name)
		if isDecimal(c.Type) {
			x = "CAST(" + x + " AS STRING)"
		}
		b.WriteString(quoteString(c.Name) + ", " + x)
	}
	b.WriteString("), map('ignoreNullFields', 'false', 'timeZone', 'UTC', " +
		`'timestampFormat', 'yyyy-MM-dd\'T\'HH:mm:ss.SSSSSS\'Z\'', 'timestampNTZFormat', 'yyyy-MM-dd\'T\'HH:mm:ss.SSSSSS'))`)
	return b.String()
}

// isDecimal reports whether a Describe type is a decimal: the client's
// "Decimal", or the "Decimal(p,s)" Describe puts in its place.
func isDecimal(typ string) bool {
	return len(typ) >= 7 && strings.EqualFold(typ[:7], "decimal")
}
