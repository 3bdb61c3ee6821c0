package wire

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestTimeWritesWhatFormatWrites: the digit-by-digit writer answers what
// time.Format answers with the wire's layout, for edge times, other zones
// and many random instants across and beyond four-digit years.
func TestTimeWritesWhatFormatWrites(t *testing.T) {
	kolkata := time.FixedZone("IST", 5*3600+1800)
	cases := []time.Time{
		{},
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 15, 12, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 30, 23, 59, 59, 999_500_000, time.UTC),
		time.Date(2026, 12, 1, 4, 29, 59, 1_000_000, kolkata), // the previous day in UTC
		time.Date(2024, 2, 29, 7, 8, 9, 10_000_000, time.UTC),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		cases = append(cases, time.Unix(rng.Int64N(400_000_000_000)-62_000_000_000, rng.Int64N(1e9)))
	}
	for _, c := range cases {
		if got, want := Time(c), c.UTC().Format(timeLayout); got != want {
			t.Fatalf("Time(%v) = %q, want %q", c, got, want)
		}
	}
}

func BenchmarkTime(b *testing.B) {
	at := time.Date(2026, 11, 30, 12, 34, 56, 789_000_000, time.UTC)
	b.Run("digits", func(b *testing.B) {
		for b.Loop() {
			_ = Time(at)
		}
	})
	b.Run("time.Format", func(b *testing.B) {
		for b.Loop() {
			_ = at.UTC().Format(timeLayout)
		}
	})
}
