package render

import (
	"bytes"
	"encoding/json"
	"text/template"
	"text/template/parse"

	"jig/status"
)

// rootKeys are the top-level keys of the document a template can read, nil
// when it may read any: a bare dot or $ where dot is the document, a
// {{template}} or a {{define}}. A status line's {{.state}} then decodes
// one member of a 24 KB file, not the whole of it.
func rootKeys(t *template.Template) map[string]bool {
	keys := map[string]bool{}
	if t.Tree == nil || len(t.Templates()) > 1 || !readKeys(t.Tree.Root, true, keys) {
		return nil
	}
	return keys
}

// readKeys adds to keys the top-level keys n reads, root telling whether
// dot is the document there (not inside a range or with body). It is false
// when n may read the document whole.
func readKeys(n parse.Node, root bool, keys map[string]bool) bool {
	all := func(root bool, nodes ...parse.Node) bool {
		for _, c := range nodes {
			if !readKeys(c, root, keys) {
				return false
			}
		}
		return true
	}
	switch n := n.(type) {
	case *parse.ListNode:
		return n == nil || all(root, n.Nodes...)
	case *parse.ActionNode:
		return readKeys(n.Pipe, root, keys)
	case *parse.IfNode:
		return all(root, n.Pipe, n.List, n.ElseList)
	case *parse.RangeNode:
		return all(root, n.Pipe, n.ElseList) && readKeys(n.List, false, keys)
	case *parse.WithNode:
		return all(root, n.Pipe, n.ElseList) && readKeys(n.List, false, keys)
	case *parse.PipeNode:
		if n == nil {
			return true
		}
		for _, c := range n.Cmds {
			if !all(root, c.Args...) {
				return false
			}
		}
		return true
	case *parse.ChainNode:
		return readKeys(n.Node, root, keys)
	case *parse.FieldNode:
		if root {
			keys[n.Ident[0]] = true
		}
		return true
	case *parse.VariableNode:
		if n.Ident[0] != "$" {
			return true // a variable holds what its declaration read
		}
		if len(n.Ident) == 1 {
			return false
		}
		keys[n.Ident[1]] = true
		return true
	case *parse.DotNode:
		return !root // inside a range or with, dot is part of a key read whole
	case *parse.TextNode, *parse.CommentNode, *parse.IdentifierNode, *parse.BoolNode, *parse.NumberNode,
		*parse.StringNode, *parse.NilNode, *parse.BreakNode, *parse.ContinueNode:
		return true
	}
	return false // a node this does not know: the whole document
}

// documentOf is Document(data) for a template that reads only keys (nil:
// any) of an object: those members are decoded, the rest only scanned. A
// number a template could not hold, read or not, fails the whole run as
// before: such a document is decoded whole.
func documentOf(data []byte, keys map[string]bool) (any, error) {
	if keys == nil || !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) || !plainNumbers(data) {
		return Document(data, templateNumber)
	}
	members := map[string][]byte{} // the last of each name, as a decoder keeps it
	if !status.WalkMembers(data, func(key, value []byte) bool {
		if k := Clean(status.MemberName(key)); keys[k] {
			members[k] = value
		}
		return true
	}) {
		// not one JSON value: what a decoder makes of it, its first value
		// or its error
		var raws map[string]json.RawMessage
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&raws); err != nil {
			return nil, err
		}
		clear(members) // what the walk handed on before it failed
		for k, raw := range raws {
			if k = Clean(k); keys[k] {
				members[k] = raw
			}
		}
	}
	doc := make(map[string]any, len(keys))
	for k, raw := range members {
		v, err := Document(raw, templateNumber)
		if err != nil {
			return nil, err
		}
		doc[k] = v
	}
	return doc, nil
}

// plainNumbers reports whether every number in the JSON data is one that
// surely fits a float64: no exponent, at most 300 digits in a row.
func plainNumbers(data []byte) bool {
	digits := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			if i = stringEnd(data, i); i < 0 {
				return true // not JSON: the decode says so
			}
		case c >= '0' && c <= '9':
			if digits++; digits > 300 {
				return false
			}
			continue
		case (c == 'e' || c == 'E') && i > 0 && (data[i-1] >= '0' && data[i-1] <= '9' || data[i-1] == '.'):
			return false
		}
		digits = 0
	}
	return true
}

// stringEnd is the index of the quote that ends the string opened at i,
// -1 when none does.
func stringEnd(data []byte, i int) int {
	for {
		j := bytes.IndexByte(data[i+1:], '"')
		if j < 0 {
			return -1
		}
		i += 1 + j
		k := i - 1
		for k >= 0 && data[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 { // not escaped
			return i
		}
	}
}
