package core

// MaxAttemptsListed bounds an attempt log's answer: the latest attempts
// first (a delivery retried for three days makes about 22).
const MaxAttemptsListed = 100
