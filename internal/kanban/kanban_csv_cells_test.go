package kanban

import "testing"

func TestCSVCellsNeutraliseAndRoundTrip(t *testing.T) {
	cases := []struct{ text, cell string }{
		{"=1+1", "'=1+1"}, {"+1", "'+1"}, {"-1", "'-1"}, {"@A1", "'@A1"}, {"\tx", "'\tx"}, {"\rx", "'\rx"},
		{"\nx", "'\nx"}, {"'x", "''x"}, {"''=x", "'''=x"}, {"x=1", "x=1"}, {"", ""}, {"a", "a"}, {" =x", " =x"},
	}
	for _, c := range cases {
		if got := textCell(c.text); got != c.cell {
			t.Errorf("textCell(%q) = %q, want %q", c.text, got, c.cell)
		}
		if got := plainCell(textCell(c.text)); got != c.text {
			t.Errorf("plainCell(textCell(%q)) = %q: no round trip", c.text, got)
		}
	}
}
