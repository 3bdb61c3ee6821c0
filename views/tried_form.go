package views

import (
	"slices"

	"github.com/a-h/templ"
)

// TriedForm is a settings form the server refused, as it was posted: that
// form, known by its action, is drawn again with what was typed instead of
// the stored values, as the new-inbox and new-contact forms are, each
// refusal next to its field. Templates ask for their fields by name, so
// nothing else that was posted (a secret) is ever shown back.
type TriedForm struct {
	Action string
	Values map[string][]string
	// Errors are the refusal's sentences at the fields the form shows
	// (those about no such field are the page's, on top).
	Errors FieldErrors
}

// triedForm is the prefix of the tried form's error ids: a page draws
// sentences in the one form refused only, so no two forms share an id.
const triedForm = "tried"

// errorsAt are the refusals of the form at action: none unless it is the
// form refused.
func (t TriedForm) errorsAt(action string) FieldErrors {
	if !t.Is(action) {
		return nil
	}
	return t.Errors
}

// Invalid ties field name of the form at action to its refusal, if that
// form was refused for it (FieldErrors.Invalid).
func (t TriedForm) Invalid(action, name string) templ.Attributes {
	return t.errorsAt(action).Invalid(triedForm, name)
}

// Is tells whether the form at action is the one refused.
func (t TriedForm) Is(action string) bool {
	return t.Action != "" && t.Action == action
}

// Value is field name of the form at action: as typed when that form was
// refused, else stored.
func (t TriedForm) Value(action, name, stored string) string {
	if !t.Is(action) {
		return stored
	}
	if v := t.Values[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Ticked says whether the checkbox name=value of the form at action is
// ticked: as posted when that form was refused, else as stored.
func (t TriedForm) Ticked(action, name, value string, stored bool) bool {
	if !t.Is(action) {
		return stored
	}
	return slices.Contains(t.Values[name], value)
}

// FieldErrors are a refused form's sentences by field name (under "": one
// about no field the form shows). A form drawn again after a refusal shows
// each next to its field with fieldError and ties the field to it with
// Invalid, so a screen reader says the field is wrong and why.
type FieldErrors map[string]string

// ErrorID is the id of the element holding field name's sentence in the
// form known by prefix (ids are the document's: two forms on a page must
// not share one).
func (e FieldErrors) ErrorID(prefix, name string) string {
	return prefix + "-err-" + name
}

// Invalid is the attributes of field name's input: aria-invalid and
// aria-describedby naming its sentence when it was refused, none otherwise.
func (e FieldErrors) Invalid(prefix, name string) templ.Attributes {
	if e[name] == "" {
		return templ.Attributes{}
	}
	return templ.Attributes{"aria-invalid": "true", "aria-describedby": e.ErrorID(prefix, name)}
}

// errors is the merge form's refusal as FieldErrors: each is about the
// contact chosen to merge (a "keep" other than the form's two choices is
// not sent by the form).
func (m ContactMerge) errors() FieldErrors { return FieldErrors{"merge": m.Error} }
