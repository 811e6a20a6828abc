package workspace

// MaxUseEntries lets tests lower the bound of `!use FOLDER`.
var MaxUseEntries = &maxUseEntries

// RealPathShared resolves ps with one resolver, as a snapshot's paths are.
func RealPathShared(ps []string) ([]string, []error) {
	r := resolver{}
	reals, errs := make([]string, len(ps)), make([]error, len(ps))
	for i, p := range ps {
		reals[i], errs[i] = r.real(p)
	}
	return reals, errs
}
