package clierr

import "fmt"

// MaxLine bounds the error line the CLI prints: readers quote at most a
// short prefix of a bad value (limits.Quote), and this catches any
// message that still echoes a long input.
const MaxLine = 2000

// Line cuts msg to at most MaxLine bytes, at a UTF-8 character boundary,
// and says how many bytes it left out.
func Line(msg string) string {
	if len(msg) <= MaxLine {
		return msg
	}
	cut := MaxLine
	for cut > 0 && msg[cut]&0xC0 == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes more)", msg[:cut], len(msg)-cut)
}
