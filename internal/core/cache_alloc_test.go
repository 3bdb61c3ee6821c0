package core_test

import (
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// tokenLikeKey is a key wider than a word, as the verified tokens' is.
type tokenLikeKey struct {
	hash      string
	accountID int
}

// TestCacheLookupsDoNotAllocate: a lookup that finds its entry, in a cache
// of plain keys (the verified tokens, on every request) or of Scoped keys
// (the conversation pages), allocates nothing: a key boxed into an
// interface to ask its account did, once per lookup.
func TestCacheLookupsDoNotAllocate(t *testing.T) {
	e := testdb.Engines(t)[0]
	c := core.New(e.New(t).Client)
	opts := core.CacheOptions{Kind: "test_allocs", TTL: time.Minute, Size: 10, Changes: func(ent.Mutation) bool { return false }}
	plain := core.NewCache[tokenLikeKey, int](c, opts)
	scoped := core.NewScopedCache[pageKey, int](c, opts)
	pk, sk := tokenLikeKey{"a token's hash", 1}, pageKey{1, "page"}
	_, gen, _ := plain.Get(pk)
	plain.Put(pk, 1, gen)
	_, gen, _ = scoped.Get(sk)
	scoped.Put(sk, 1, gen)
	for name, lookup := range map[string]func(){
		"plain Get":  func() { plain.Get(pk) },
		"Scoped Get": func() { scoped.Get(sk) },
		"Scoped Load": func() {
			_, _ = scoped.Load(sk, func() (int, error) { return 1, nil })
		},
	} {
		if n := testing.AllocsPerRun(100, lookup); n != 0 {
			t.Errorf("%s: %v allocations a lookup, want 0", name, n)
		}
	}
}
