package inboxes_test

import (
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestMain lets testdb stop the PostgreSQL cluster it starts for this
// package's tests.
func TestMain(m *testing.M) { testdb.Main(m) }
