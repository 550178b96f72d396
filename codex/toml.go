package codex

import (
	"bytes"
	"slices"
	"strings"
)

// tomlDef is one definition in a config.toml: a table header (key nil), a
// key set in the table above it, or a comment line outside every value; a
// key's value when it is a plain one-line basic string; and where its
// lines are.
type tomlDef struct {
	table   []string
	key     []string
	array   bool // an [[array of tables]] header
	str     string
	hasStr  bool
	comment string // a header's comment after it, or a comment line's text
	isNote  bool   // a comment line
	start   int    // offset of its first line
	end     int    // offset after its last line's newline
}

// scanTOML lists a TOML file's table headers and keys, enough to see where
// hooks.state is defined and how. It follows strings (one-line and
// multi-line) and values spread over lines, so a `[` or `=` inside them is
// never taken for a header or a key; it does not check the file further.
func scanTOML(data []byte) []tomlDef {
	var defs []tomlDef
	var table []string
	lines := bytes.SplitAfter(data, []byte("\n"))
	at := 0 // offset of line i
	for i := 0; i < len(lines); at, i = at+len(lines[i]), i+1 {
		l := bytes.TrimLeft(lines[i], " \t")
		switch {
		case len(l) > 0 && l[0] == '#':
			defs = append(defs, tomlDef{table: table, isNote: true, comment: string(bytes.TrimRight(l, "\r\n")), start: at, end: at + len(lines[i])})
		case len(l) == 0 || l[0] == '\n' || l[0] == '\r':
		case l[0] == '[':
			array := bytes.HasPrefix(l, []byte("[["))
			rest := l[1:]
			if array {
				rest = l[2:]
			}
			path, n := dottedKey(rest)
			table = path
			defs = append(defs, tomlDef{table: path, array: array, comment: headerComment(rest[n:], array), start: at, end: at + len(lines[i])})
		default:
			key, n := dottedKey(l)
			rest := bytes.TrimLeft(l[n:], " \t")
			if len(key) == 0 || len(rest) == 0 || rest[0] != '=' {
				continue // not a key line: nothing jig reads
			}
			d := tomlDef{table: table, key: key, start: at}
			val := bytes.TrimSpace(rest[1:])
			if s, ok := plainString(val); ok {
				d.str, d.hasStr = s, true
			}
			last := min(skipValue(lines, i, len(lines[i])-len(rest)+1), len(lines)-1)
			for ; i < last; i++ {
				at += len(lines[i])
			}
			d.end = at + len(lines[i])
			defs = append(defs, d)
		}
	}
	return defs
}

// headerComment is the comment after a table header's closing bracket
// (rest is what follows the header's key), "" when none.
func headerComment(rest []byte, array bool) string {
	closing := "]"
	if array {
		closing = "]]"
	}
	rest = bytes.TrimLeft(rest, " \t")
	if !bytes.HasPrefix(rest, []byte(closing)) {
		return ""
	}
	rest = bytes.TrimSpace(rest[len(closing):])
	if len(rest) == 0 || rest[0] != '#' {
		return ""
	}
	return string(rest)
}

// dottedKey reads a key (bare, "basic" or 'literal' parts joined by dots)
// and returns its parts and how many bytes it took.
func dottedKey(b []byte) ([]string, int) {
	var parts []string
	i := 0
	for {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i >= len(b) {
			return parts, i
		}
		switch c := b[i]; {
		case c == '"' || c == '\'':
			j := i + 1
			var sb strings.Builder
			for j < len(b) && b[j] != c && b[j] != '\n' {
				if c == '"' && b[j] == '\\' && j+1 < len(b) {
					j++
					switch b[j] {
					case 'n':
						sb.WriteByte('\n')
					case 't':
						sb.WriteByte('\t')
					default:
						sb.WriteByte(b[j]) // \" \\ and the rest jig's keys never hold
					}
				} else {
					sb.WriteByte(b[j])
				}
				j++
			}
			if j >= len(b) || b[j] != c {
				return nil, j // an unterminated quote: not a key
			}
			parts, i = append(parts, sb.String()), j+1
		case isBare(c):
			j := i
			for j < len(b) && isBare(b[j]) {
				j++
			}
			parts, i = append(parts, string(b[i:j])), j
		default:
			return parts, i
		}
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i >= len(b) || b[i] != '.' {
			return parts, i
		}
		i++
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// plainString is a value that is one basic string without escapes, and
// nothing after it but a comment.
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.HasPrefix(v, []byte(`"""`)) {
		return "", false
	}
	end := bytes.IndexByte(v[1:], '"')
	if end < 0 || bytes.ContainsRune(v[1:end+1], '\\') {
		return "", false
	}
	if rest := bytes.TrimSpace(v[end+2:]); len(rest) > 0 && rest[0] != '#' {
		return "", false
	}
	return string(v[1 : end+1]), true
}

// skipValue follows a key's value from line i, byte at, through strings
// and brackets to where it ends, and returns the index of its last line.
func skipValue(lines [][]byte, i, at int) int {
	depth := 0
	var multi string // the closing quotes of a multi-line string we are in
	for ; i < len(lines); i, at = i+1, 0 {
		l := lines[i]
		for j := at; j < len(l); j++ {
			switch {
			case multi != "":
				if l[j] == '\\' && multi == `"""` {
					j++
				} else if bytes.HasPrefix(l[j:], []byte(multi)) {
					j += len(multi) - 1
					multi = ""
				}
			case bytes.HasPrefix(l[j:], []byte(`"""`)) || bytes.HasPrefix(l[j:], []byte(`'''`)):
				multi = string(l[j : j+3])
				j += 2
			case l[j] == '"' || l[j] == '\'':
				q := l[j]
				for j++; j < len(l) && l[j] != q && l[j] != '\n'; j++ {
					if q == '"' && l[j] == '\\' {
						j++
					}
				}
			case l[j] == '[' || l[j] == '{':
				depth++
			case l[j] == ']' || l[j] == '}':
				depth--
			case l[j] == '#':
				j = len(l) // a comment to the end of the line
			}
		}
		if multi == "" && depth <= 0 {
			return i
		}
	}
	return i
}

// trustConflicts looks at how config.toml (without jig's lines) defines
// hooks.state: the trust entries it already has for jig's keys (their
// hashes), and whether it defines hooks or hooks.state in a way that a
// [hooks.state."KEY"] table after it would break (an inline table, a
// plain value, dotted keys for one of jig's keys).
func trustConflicts(config []byte, keys []string) (existing map[string]string, bad string) {
	existing = map[string]string{}
	var inTable string // the jig key whose table we are in
	for _, d := range scanTOML(config) {
		if d.isNote {
			continue
		}
		full := append(slices.Clone(d.table), d.key...)
		if d.key == nil {
			inTable = ""
			if len(full) == 3 && full[0] == "hooks" && full[1] == "state" && slices.Contains(keys, full[2]) && !d.array {
				inTable = full[2]
				existing[inTable] = ""
			} else if d.array && len(full) >= 1 && len(full) <= 2 && full[0] == "hooks" {
				return nil, "config.toml makes hooks or hooks.state a list of tables"
			}
			continue
		}
		if inTable != "" && len(d.key) == 1 && d.key[0] == "trusted_hash" && d.hasStr {
			existing[inTable] = d.str
			continue
		}
		switch {
		case len(full) >= 1 && full[0] == "hooks" && len(full) <= 2 && (len(full) == 1 || full[1] == "state"):
			return nil, "config.toml sets " + strings.Join(full, ".") + " as a value, so jig cannot add tables under it"
		case len(full) >= 3 && full[0] == "hooks" && full[1] == "state" && slices.Contains(keys, full[2]) &&
			!(len(d.table) == 3 && d.table[2] == full[2]):
			return nil, "config.toml sets the trust of one of jig's hooks with a dotted key or an inline table"
		}
	}
	return existing, ""
}
