package codex

import (
	"bytes"
	"slices"
	"strings"
)

// jig owns its trust entries in config.toml one by one, by key: a
// [hooks.state."KEY"] table whose header line carries jig's comment, and
// the trusted_hash line under it. Nothing else in the file is jig's. Codex
// writes config.toml itself (a TUI's first run appends [tui] and
// [notice.model_migrations] after the last table, which may be jig's), so
// install and uninstall find jig's lines by what they are, never by a
// region of the file, and touch nothing else.
const (
	ownMark        = "# jig install codex"
	ownMarkNewline = "# jig install codex (it added the newline before this line)"

	// an older jig kept its entries between these lines; what Codex wrote
	// between them stays
	legacyBegin        = "# jig install codex: begin (Codex runs jig's hooks in hooks.json only when trusted)"
	legacyBeginNewline = "# jig install codex: begin (a newline was added before this line)"
	legacyEnd          = "# jig install codex: end"
	trustedHashKey     = "trusted_hash"
)

// ownedTable is one of jig's trust tables: where its header and its
// trusted_hash line are, and whether someone else (Codex: `enabled =
// false` when the user turns the hook off) added a key to it.
type ownedTable struct {
	key, hash    string
	header       [2]int
	hashLine     [2]int // [0] < 0: there is none
	others       bool
	addedNewline bool
}

// owned is everything of jig's in a config.toml: its tables, and an older
// jig's lines (markers and tables between them).
type owned struct {
	tables        []ownedTable
	legacy        [][2]int // whole lines
	legacyNewline int      // where a legacy block that added a newline began; -1 when none
}

// findOwned reads config.toml's definitions (strings and values followed,
// so nothing inside a multi-line string is taken for jig's) for jig's
// lines. legacyKey tells which keys between an older jig's markers were
// jig's: the keys of jig's groups in hooks.json.
func findOwned(config []byte, legacyKey func(string) bool) owned {
	o := owned{legacyNewline: -1}
	var cur *ownedTable
	inLegacy, legacyTable := false, [2]int{-1, -1}
	for _, d := range scanTOML(config) {
		switch {
		case d.isNote:
			switch {
			case !inLegacy && (d.comment == legacyBegin || d.comment == legacyBeginNewline):
				inLegacy = true
				o.legacy = append(o.legacy, [2]int{d.start, d.end})
				if d.comment == legacyBeginNewline {
					o.legacyNewline = d.start
				}
			case inLegacy && d.comment == legacyEnd:
				inLegacy = false
				o.legacy = append(o.legacy, [2]int{d.start, d.end})
			}
			continue
		case d.key == nil: // a header
			cur, legacyTable = nil, [2]int{-1, -1}
			key, isState := stateKey(d)
			switch {
			case isState && (d.comment == ownMark || d.comment == ownMarkNewline):
				o.tables = append(o.tables, ownedTable{key: key, header: [2]int{d.start, d.end}, hashLine: [2]int{-1, -1},
					addedNewline: d.comment == ownMarkNewline})
				cur = &o.tables[len(o.tables)-1]
			case isState && inLegacy && d.comment == "" && legacyKey(key):
				legacyTable = [2]int{d.start, d.end}
			}
			continue
		}
		isHash := len(d.key) == 1 && d.key[0] == trustedHashKey && d.hasStr
		switch {
		case cur != nil && isHash && cur.hashLine[0] < 0:
			cur.hashLine, cur.hash = [2]int{d.start, d.end}, d.str
		case cur != nil:
			cur.others = true
		case legacyTable[0] >= 0 && isHash && legacyTable[1] == d.start:
			// an older jig's table: its header and the hash right under it
			o.legacy = append(o.legacy, legacyTable, [2]int{d.start, d.end})
			legacyTable = [2]int{-1, -1}
		}
	}
	return o
}

// stateKey is KEY of a [hooks.state."KEY"] header.
func stateKey(d tomlDef) (string, bool) {
	if d.array || len(d.table) != 3 || d.table[0] != "hooks" || d.table[1] != "state" {
		return "", false
	}
	return d.table[2], true
}

// textEdit replaces config[from:to] with text.
type textEdit struct {
	from, to int
	text     string
}

// apply makes the edits (which do not overlap), last first.
func apply(config []byte, edits []textEdit) []byte {
	slices.SortFunc(edits, func(a, b textEdit) int { return b.from - a.from })
	out := slices.Clone(config)
	for _, e := range edits {
		out = splice(out, e.from, e.to, e.text)
	}
	return out
}

// removal is the edits that take table t out: its header and hash line,
// or, when the table holds someone else's key, the hash line and jig's
// comment on the header only.
func (t ownedTable) removal(config []byte) []textEdit {
	var edits []textEdit
	if t.hashLine[0] >= 0 {
		edits = append(edits, textEdit{t.hashLine[0], t.hashLine[1], ""})
	}
	if !t.others {
		return append(edits, textEdit{t.header[0], t.header[1], ""})
	}
	line := string(config[t.header[0]:t.header[1]])
	if i := strings.LastIndex(line, " "+ownMark); i >= 0 {
		line = strings.TrimRight(line[:i], " \t") + "\n"
	}
	return append(edits, textEdit{t.header[0], t.header[1], line})
}

// without is config without any of jig's lines: the user's file as it
// was, with what Codex and the user wrote since. A newline jig added
// before its first line goes when nothing but jig's lines followed it.
func (o owned) without(config []byte) []byte {
	var edits []textEdit
	var newlineAt []int
	for _, t := range o.tables {
		edits = append(edits, t.removal(config)...)
		if t.addedNewline {
			newlineAt = append(newlineAt, t.header[0])
		}
	}
	for _, l := range o.legacy {
		edits = append(edits, textEdit{l[0], l[1], ""})
	}
	if o.legacyNewline >= 0 {
		newlineAt = append(newlineAt, o.legacyNewline)
	}
	for _, at := range newlineAt {
		if at > 0 && config[at-1] == '\n' && onlyRemovedAfter(config, edits, at) {
			edits = append(edits, textEdit{at - 1, at, ""})
			break
		}
	}
	return apply(config, edits)
}

// onlyRemovedAfter reports whether every byte of config from at on is
// removed by the edits.
func onlyRemovedAfter(config []byte, edits []textEdit, at int) bool {
	removed := 0
	for _, e := range edits {
		if e.from >= at && e.text == "" {
			removed += e.to - e.from
		}
	}
	return removed == len(config)-at
}

// ownedConfig is config with jig's trust entries set to want and nothing
// else changed: a table of jig's already right stays where it is, one of a
// key jig no longer uses goes, a missing one is appended at the end (after
// a newline jig adds when the file's last line has none). skip holds the
// keys trusted outside jig's lines, which jig leaves alone.
func ownedConfig(config []byte, o owned, want []trustEntry, skip map[string]bool) []byte {
	var edits []textEdit
	for _, l := range o.legacy {
		edits = append(edits, textEdit{l[0], l[1], ""})
	}
	done := map[string]bool{}
	for _, t := range o.tables {
		i := slices.IndexFunc(want, func(e trustEntry) bool { return e.Key == t.key })
		if i < 0 || skip[t.key] || done[t.key] {
			edits = append(edits, t.removal(config)...)
			continue
		}
		done[t.key] = true
		line := trustedHashKey + " = " + tomlString(want[i].Hash) + "\n"
		switch {
		case t.hashLine[0] < 0:
			edits = append(edits, textEdit{t.header[1], t.header[1], line})
		case t.hash != want[i].Hash:
			edits = append(edits, textEdit{t.hashLine[0], t.hashLine[1], line})
		}
	}
	var add strings.Builder
	for _, e := range want {
		if !done[e.Key] && !skip[e.Key] {
			add.WriteString(ownedTableText(e, ownMark))
		}
	}
	out := apply(config, edits)
	if o.legacyNewline >= 0 && onlyRemovedAfter(config, edits, o.legacyNewline) && bytes.HasSuffix(out, []byte("\n")) {
		out = out[:len(out)-1] // the newline an older jig added, when nothing of anyone's followed it
	}
	if add.Len() == 0 {
		return out
	}
	text := add.String()
	if len(out) > 0 && out[len(out)-1] != '\n' {
		text = "\n" + strings.Replace(text, ownMark, ownMarkNewline, 1)
	}
	return append(out, text...)
}

// ownedTableText is one trust entry as jig writes it.
func ownedTableText(e trustEntry, mark string) string {
	return "[hooks.state." + tomlString(e.Key) + "] " + mark + "\n" + trustedHashKey + " = " + tomlString(e.Hash) + "\n"
}

// jigKeys is the trust keys of jig's groups in hooks.json (any jig's),
// which an older jig's lines in config.toml trusted.
func jigKeys(hooks []byte, hooksFile string) func(string) bool {
	keys := map[string]bool{}
	if _, obj, err := hooksObject(hooks); err == nil && obj != nil {
		for _, sp := range specs {
			if list, _ := obj.member(sp.Event); list != nil && list.kind == '[' {
				for i, g := range list.elems {
					if isJigGroup(hooks, g) {
						keys[trustKey(hooksFile, sp.Label, i)] = true
					}
				}
			}
		}
	}
	return func(k string) bool { return keys[k] }
}
