package views

import (
	"fmt"
	"net/url"
	"strconv"
)

// AccountURL is a console path inside an account.
func AccountURL(accountID int, rest string) string {
	return fmt.Sprintf("/app/accounts/%d/%s", accountID, rest)
}

func pageURL(n Nav, q, sort string, page int) string {
	v := url.Values{}
	if q != "" {
		v.Set("q", q)
	}
	if sort != "" {
		v.Set("sort", sort)
	}
	v.Set("page", fmt.Sprint(page))
	return n.ContactsURL() + "?" + v.Encode()
}

func itoa(n int) string { return strconv.Itoa(n) }

// cardsLabel is "1 card", "3 cards".
func cardsLabel(n int) string {
	if n == 1 {
		return "1 card"
	}
	return strconv.Itoa(n) + " cards"
}
