// This nested module keeps the golden vectors and hardware records out of the
// github.com/gocute/cute module zip: users who import the library do not
// download 28 MB of test data. The tests of the main module read these files by
// path from a checkout, so `go test ./...` still runs every vector.
module github.com/gocute/cute/testdata

go 1.25
