package wire

import "time"

// timeLayout is the one timestamp format on the wire.
const timeLayout = "2006-01-02T15:04:05.000Z"

// Time is a timestamp as the API sends it. A list of 25 conversations
// carries about 300 of them, and time.Format, which reads its layout at
// each call, was a fifth of the list's CPU when the page came from memory;
// the fixed layout is written digit by digit instead (years 0 to 9999:
// time.Format writes others differently, and writes them here).
func Time(t time.Time) string {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.Format(timeLayout)
	}
	hour, minute, second := t.Clock()
	var b [len(timeLayout)]byte
	digits(b[0:4], year)
	b[4] = '-'
	digits(b[5:7], int(month))
	b[7] = '-'
	digits(b[8:10], day)
	b[10] = 'T'
	digits(b[11:13], hour)
	b[13] = ':'
	digits(b[14:16], minute)
	b[16] = ':'
	digits(b[17:19], second)
	b[19] = '.'
	digits(b[20:23], t.Nanosecond()/int(time.Millisecond))
	b[23] = 'Z'
	return string(b[:])
}

// digits writes n into b with leading zeros, filling b.
func digits(b []byte, n int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
}
