package assets

import (
	"embed"
	"io/fs"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations holds the run-history schema migrations, one file per schema
// version named NNNN_what.sql (0001_init.sql, 0002_...). They are applied in
// order and never edited once released: a change is a new file.
func Migrations() fs.FS {
	f, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return f
}
