// Package foreach is the engine of ForEach sinks: it hands each row of a
// streaming micro-batch to user code, one writer per partition, as Spark's
// foreach sink does. It knows nothing of flows, checkpoints or history:
// package runner decides the micro-batches and their ids, and calls Write.
//
// A Sink is made from a `foreach:` definition (FromSpec: a command writer or
// the built-in HTTP writer), or from Go code (New with a Factory, or Func
// for a per-row function):
//
//	sink, err := foreach.FromSpec(sk.ForEach, node.Name, foreach.Options{
//		Dir: filepath.Dir(pipelineFile), Parallelism: 4})
//	res, err := sink.Write(ctx, foreach.Batch{Flow: "orders__api", EpochID: 7},
//		[]foreach.Partition{
//			{ID: 0, Rows: foreach.Lines(f0)},                        // JSON lines
//			{ID: 1, Open: foreach.Query(db, "SELECT "+foreach.RowJSON(cols)+" FROM b1")},
//		})
//	// res.Rows: rows processed; err: the first *PartitionError
//
// Rows are JSON objects (Row), fed by a Source per partition: JSON lines
// (Lines), a query returning each row's JSON (SQLRows, Query; RowJSON
// builds the DuckDB projection that keeps numbers as numbers, timestamps as
// RFC 3339 strings and decimals as exact strings), or memory (JSONRows).
//
// Semantics (those of Spark's ForEach sink):
//   - Each partition of each micro-batch gets a new Writer: Open(partition,
//     epoch), Process per row, Close(err) always, with the error that ended
//     the partition. Open returning false skips the partition (its rows are
//     not even read): writers deduplicate with these ids, which are unique
//     within one flow's checkpoint only (several flows writing one sink, or
//     a full refresh resetting the checkpoint, repeat them).
//   - Any error fails the batch: the other partitions are cancelled and
//     Write returns the first *PartitionError, naming the sink, the flow,
//     the epoch, the partition and the rows processed before it.
//   - Delivery is at-least-once: Write does not retry. Retrying a failed
//     batch (or rerunning after a crash before the checkpoint committed) is
//     writing it again with the same ids, so destinations see some rows
//     again: writers should upsert by a key of the row (the HTTP writer's
//     URL can name it) or skip (partition, epoch) pairs already written.
//   - A full refresh resets the flows' checkpoints, not the destination:
//     what the sink wrote stays there.
//   - Unlike Spark, the number of rows processed is reported, per
//     partition and per batch (Result).
package foreach
