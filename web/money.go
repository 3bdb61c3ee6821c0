package web

import (
	"math"
	"sort"
	"strings"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Money on the console: the value with its currency's symbol and the
// locale's digit grouping (golang.org/x/text carries CLDR's symbols and
// separators, which we would otherwise have to keep tables of).

// money is an amount in one currency, as a card holds it.
type money struct {
	Value float64
	// Currency is the card's {symbol, code, locale}; any may be missing.
	Currency map[string]string
}

// formatMoney writes m for a reader of accountLocale; the card's own
// locale, when it has one, wins.
func formatMoney(m money, accountLocale string) string {
	loc := m.Currency["locale"]
	if loc == "" {
		loc = accountLocale
	}
	tag, err := language.Parse(loc)
	if err != nil {
		tag = language.English
	}
	p := message.NewPrinter(tag)
	digits := 0
	if m.Value != math.Trunc(m.Value) {
		digits = 2
	}
	amount := p.Sprint(number.Decimal(m.Value, number.MinFractionDigits(digits), number.MaxFractionDigits(digits)))
	if sym := symbolOf(m.Currency); sym != "" {
		return sym + "\u00a0" + amount
	}
	return amount
}

// symbolOf is the card's own symbol, else its ISO code's, else the code.
func symbolOf(cur map[string]string) string {
	if s := strings.TrimSpace(cur["symbol"]); s != "" {
		return s
	}
	code := strings.ToUpper(strings.TrimSpace(cur["code"]))
	if code == "" {
		return ""
	}
	if u, err := currency.ParseISO(code); err == nil {
		return message.NewPrinter(language.English).Sprint(currency.NarrowSymbol(u))
	}
	return code
}

// totalsByCurrency sums amounts per currency (cards of one column may be
// in several) and formats each sum, largest first.
func totalsByCurrency(ms []money, accountLocale string) []string {
	type sum struct {
		m   money
		key string
	}
	sums := map[string]*sum{}
	for _, m := range ms {
		if m.Value == 0 {
			continue // a card without an amount adds no currency to the total
		}
		key := strings.ToUpper(m.Currency["code"]) + "|" + m.Currency["symbol"]
		if sums[key] == nil {
			sums[key] = &sum{m: money{Currency: m.Currency}, key: key}
		}
		sums[key].m.Value += m.Value
	}
	list := make([]*sum, 0, len(sums))
	for _, s := range sums {
		list = append(list, s)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].m.Value != list[j].m.Value {
			return list[i].m.Value > list[j].m.Value
		}
		return list[i].key < list[j].key
	})
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = formatMoney(s.m, accountLocale)
	}
	return out
}
