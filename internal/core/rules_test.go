package core

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
)

func TestFieldErrors(t *testing.T) {
	var none FieldErrors
	if err := none.Err(); err != nil {
		t.Fatalf("no failures gave %v, want nil", err)
	}
	if none.Has("name") {
		t.Error("an empty FieldErrors has name")
	}

	var errs FieldErrors
	errs.Add("name", "Name can't be blank")
	errs.Add("email", "Email is invalid")
	var more FieldErrors
	more.Add("phone_number", "Phone number is invalid")
	errs.Merge(more)
	errs.Merge(FieldErrors{}) // merging nothing adds nothing

	for field, want := range map[string]bool{"name": true, "email": true, "phone_number": true, "identifier": false} {
		if got := errs.Has(field); got != want {
			t.Errorf("Has(%q) = %v, want %v", field, got, want)
		}
	}
	var ae *apperr.Error
	if !errors.As(errs.Err(), &ae) {
		t.Fatalf("Err() is %T, want *apperr.Error", errs.Err())
	}
	want := &apperr.Error{Kind: apperr.KindInvalid,
		Message:       "Name can't be blank, Email is invalid, Phone number is invalid",
		Fields:        []string{"name", "email", "phone_number"},
		FieldMessages: []string{"Name can't be blank", "Email is invalid", "Phone number is invalid"}}
	if !reflect.DeepEqual(ae, want) {
		t.Errorf("Err() = %+v, want %+v", ae, want)
	}
	for field, want := range map[string]string{"email": "Email is invalid", "identifier": ""} {
		if got := ae.MessageFor(field); got != want {
			t.Errorf("MessageFor(%q) = %q, want %q", field, got, want)
		}
	}
	if got := apperr.Invalid("Status is wrong", "status").MessageFor("status"); got != "Status is wrong" {
		t.Errorf("a one-field error's MessageFor = %q, want its message", got)
	}
}

func TestPaging(t *testing.T) {
	for _, tc := range []struct {
		page, size      int
		clamped, offset int
	}{
		{page: math.MinInt, size: 25, clamped: 1, offset: 0},
		{page: -3, size: 25, clamped: 1, offset: 0},
		{page: 0, size: 25, clamped: 1, offset: 0},
		{page: 1, size: 25, clamped: 1, offset: 0},
		{page: 2, size: 25, clamped: 2, offset: 25},
		{page: 7, size: 15, clamped: 7, offset: 90},
		{page: maxPage, size: 50, clamped: maxPage, offset: (maxPage - 1) * 50},
		{page: maxPage + 1, size: 50, clamped: maxPage, offset: (maxPage - 1) * 50},
		// Past maxPage the offset stays positive instead of overflowing.
		{page: math.MaxInt, size: 1000, clamped: maxPage, offset: 999_999_000},
	} {
		if got := ClampPage(tc.page); got != tc.clamped {
			t.Errorf("ClampPage(%d) = %d, want %d", tc.page, got, tc.clamped)
		}
		if got := PageOffset(tc.page, tc.size); got != tc.offset {
			t.Errorf("PageOffset(%d, %d) = %d, want %d", tc.page, tc.size, got, tc.offset)
		}
	}
}

func TestCheckListLen(t *testing.T) {
	if err := CheckListLen("card_ids", MaxIDs, MaxIDs); err != nil {
		t.Errorf("a list of exactly the cap was refused: %v", err)
	}
	err := CheckListLen("card_ids", MaxIDs+1, MaxIDs)
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.KindInvalid || !reflect.DeepEqual(ae.Fields, []string{"card_ids"}) ||
		ae.Message != "Card ids takes at most 1000 entries, got 1001" {
		t.Errorf("a list over the cap gave %#v", err)
	}
}

func TestContactFormats(t *testing.T) {
	for _, tc := range []struct {
		phone string
		valid bool
	}{
		{"+14155550123", true},
		{"+12", true},                // shortest: a country digit and one more
		{"+123456789012345", true},   // 15 digits
		{"+1234567890123456", false}, // 16 digits
		{"+0123456789", false},       // no country code starts with 0
		{"14155550123", false},       // no plus
		{"+1 415 555 0123", false},   // no spaces
		{"", false},
	} {
		if got := ValidPhone(tc.phone); got != tc.valid {
			t.Errorf("ValidPhone(%q) = %v, want %v", tc.phone, got, tc.valid)
		}
	}
	for _, tc := range []struct {
		email string
		valid bool
	}{
		{"ada@acme.test", true},
		{"a@b", true},
		{"ada@", false},
		{"@acme.test", false},
		{"ada@@acme.test", false},
		{"ada lovelace@acme.test", false},
		{"", false},
	} {
		if got := ValidEmail(tc.email); got != tc.valid {
			t.Errorf("ValidEmail(%q) = %v, want %v", tc.email, got, tc.valid)
		}
	}
	if got := NormalizeEmail("  Ada@ACME.test "); got != "ada@acme.test" {
		t.Errorf("NormalizeEmail = %q, want ada@acme.test", got)
	}
}

func TestMergeAttributes(t *testing.T) {
	base := map[string]any{"plan": "pro", "seats": 3, "city": "Berlin"}
	got := MergeAttributes(base, map[string]any{"seats": 5, "city": nil, "tier": "gold"})
	want := map[string]any{"plan": "pro", "seats": 5, "tier": "gold"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MergeAttributes = %v, want %v", got, want)
	}
	if want := map[string]any{"plan": "pro", "seats": 3, "city": "Berlin"}; !reflect.DeepEqual(base, want) {
		t.Errorf("MergeAttributes changed its base to %v", base)
	}
	if got := MergeAttributes(nil, map[string]any{"gone": nil}); len(got) != 0 || got == nil {
		t.Errorf("removing from nothing gave %#v, want an empty map", got)
	}
}

func TestUniqueLists(t *testing.T) {
	if got, want := UniqueInts([]int{3, 1, 3, 2, 1}), []int{1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("UniqueInts = %v, want %v (sorted)", got, want)
	}
	if got := UniqueInts(nil); got == nil || len(got) != 0 {
		t.Errorf("UniqueInts(nil) = %#v, want an empty list", got)
	}
	if got, want := UniqueStrings([]string{"b", "a", "b", "c", "a"}), []string{"b", "a", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("UniqueStrings = %v, want %v (first-seen order)", got, want)
	}
}

func TestNotFound(t *testing.T) {
	var ae *apperr.Error
	if err := NotFound(&ent.NotFoundError{}, "Inbox"); !errors.As(err, &ae) || ae.Kind != apperr.KindNotFound ||
		ae.Message != "Inbox could not be found" {
		t.Errorf("NotFound(ent not found) = %#v", err)
	}
	other := errors.New("connection reset")
	if err := NotFound(other, "Inbox"); err != other {
		t.Errorf("NotFound passed %v on as %v", other, err)
	}
	if err := NotFound(nil, "Inbox"); err != nil {
		t.Errorf("NotFound(nil) = %v", err)
	}
	if err := ApperrOrNil(nil); err != nil {
		t.Errorf("ApperrOrNil(nil) = %#v, want a nil error", err)
	}
}
