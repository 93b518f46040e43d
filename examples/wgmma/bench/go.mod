module github.com/gocute/cute/examples/wgmma/bench

go 1.26

require (
	github.com/gocute/cute v0.0.0
	gonum.org/v1/gonum v0.17.0
)

replace github.com/gocute/cute => ../../..
