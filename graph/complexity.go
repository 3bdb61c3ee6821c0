package graph

import (
	"github.com/switchboard/switchboard/internal/apperr"
)

// maxPage is the largest page of a connection. The cost check (cost.go)
// refuses a connection asked for without first/last or beyond it before
// anything runs; checkPage holds the top-level resolvers to it as well.
const maxPage = 100

// checkPage bounds a top-level connection: at most maxPage items, and
// maxPage when neither first nor last is given.
func checkPage(first, last *int) (*int, error) {
	for _, n := range []*int{first, last} {
		if n != nil && (*n < 0 || *n > maxPage) {
			return nil, apperr.Invalidf("first", "first and last must be between 0 and %d", maxPage)
		}
	}
	if first == nil && last == nil {
		n := maxPage
		return &n, nil
	}
	return first, nil
}
