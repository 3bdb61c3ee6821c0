package graph_test

// gmKnownGap lists the GraphQL matrix cells ("query.field | role") where the
// code does not yet meet issue 10, with the reason. They are skipped; a gap
// that starts passing fails the suite so that it is removed here. The lead
// empties this list as the rules move into the privacy policy.
var gmKnownGap = map[string]string{}
