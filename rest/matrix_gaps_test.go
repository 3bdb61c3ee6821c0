package rest_test

// knownGap lists the matrix cells ("METHOD /path | role", a variant as
// "METHOD /path [variant] | role") where the code does not yet meet issue
// 10, with the reason. They are skipped, not passed; a gap that starts
// passing fails the suite so that it is removed here. The lead empties this
// list as the rules move into the privacy policy.
var knownGap = map[string]string{}
