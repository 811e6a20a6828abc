package frame

// spEngine builds column expressions on the PYSPARK backend.
type spEngine struct {
	ev *evaluator
}

func (e *spEngine) attr(x Expr, name string, pos int) (value, error) {
	return nil, unsupportedAt(pos, "", "PYSPARK expressions")
}

func (e *spEngine) binary(op string, l, r value, pos int) (value, error) {
	return nil, unsupportedAt(pos, "", "PYSPARK expressions")
}

func (e *spEngine) unary(op string, x Expr, pos int) (value, error) {
	return nil, unsupportedAt(pos, "", "PYSPARK expressions")
}

func (e *spEngine) call(c *call) (value, error) {
	return nil, unsupportedAt(c.at, "", "PYSPARK expressions")
}

func (e *spEngine) truthErr(x Expr, pos int) error {
	return unsupportedAt(pos, "", "PYSPARK expressions")
}

func (m *mcall) spRowIndex(name string, orderBy value, part []string) (*relation, error) {
	return nil, unsupportedAt(-1, "", "PYSPARK")
}

func (m *mcall) spGroupBy(ev *evaluator, groups []string, aggs []value) (*relation, error) {
	return nil, unsupportedAt(-1, "", "PYSPARK")
}

// sparkTypeCall is a T.* type instance's Spark SQL type.
func sparkTypeCall(c *call, name string) (string, error) {
	return "", unsupportedAt(c.at, "", "PySpark types")
}
