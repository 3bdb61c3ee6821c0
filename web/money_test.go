package web

import "testing"

func TestFormatMoney(t *testing.T) {
	for _, tc := range []struct {
		name   string
		m      money
		locale string
		want   string
	}{
		{"ISO code, English grouping", money{7395, map[string]string{"code": "EUR"}}, "en", "€\u00a07,395"},
		{"cents shown when there are any", money{12500.5, map[string]string{"code": "usd"}}, "en", "$\u00a012,500.50"},
		{"the account's locale groups", money{1234567, map[string]string{"code": "BRL"}}, "pt-BR", "R$\u00a01.234.567"},
		{"the card's locale wins", money{1234.5, map[string]string{"code": "EUR", "locale": "de"}}, "en", "€\u00a01.234,50"},
		{"the card's own symbol wins", money{10, map[string]string{"code": "EUR", "symbol": "EUR€"}}, "en", "EUR€\u00a010"},
		{"an unknown code is shown as is", money{5, map[string]string{"code": "XYZ1"}}, "en", "XYZ1\u00a05"},
		{"no currency: the number alone", money{2500, nil}, "en", "2,500"},
		{"a bad locale falls back to English", money{2500, nil}, "not a locale!", "2,500"},
	} {
		if got := formatMoney(tc.m, tc.locale); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	got := totalsByCurrency([]money{{100, map[string]string{"code": "USD"}}, {0, nil}, {900, map[string]string{"code": "EUR"}},
		{50, map[string]string{"code": "USD"}}}, "en")
	if len(got) != 2 || got[0] != "€\u00a0900" || got[1] != "$\u00a0150" {
		t.Errorf("totals per currency, largest first, zero amounts left out: %q", got)
	}
}
