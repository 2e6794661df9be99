// Package shellquote writes words for a POSIX shell command line: the
// one quoting rule the Slurm scripts of batch and the commands a report
// prints share.
package shellquote

import "strings"

// bare holds the punctuation a word may keep unquoted besides ASCII
// letters and digits: none of it is special to a POSIX shell (% and @
// included; = makes a word an assignment only before a command's name,
// and the callers' words follow one).
const bare = "-_./:=,+%@"

// Word returns s as one word of a POSIX shell command line: as it is
// when it is not empty and holds only ASCII letters, digits and the
// characters of bare; otherwise in single quotes, where each ' of s
// closes the quotes, stands escaped by a backslash and reopens them.
func Word(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(bare, r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
