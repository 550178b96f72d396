// Package jq is --jq: gojq over render's cleaned document, within render's
// bounds, for render.Output's CompileJQ. It stands apart from render so
// that only a program that takes --jq links gojq: gojq's package init (its
// table of builtins) costs every process that links it, and the agents'
// hooks and status lines import render.
package jq

import (
	"encoding/json"
	"io"

	"github.com/itchyny/gojq"

	"jig/render"
)

// query is a compiled --jq expression and the bounds it runs within.
type query struct {
	code   *gojq.Code
	bounds render.Bounds
}

// Compile compiles a --jq expression to run within b. It reads no
// environment ($ENV and env are empty) and no further input.
func Compile(expr string, b render.Bounds) (render.Filter, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, err
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, err
	}
	return &query{code, b}, nil
}

// Run runs q over the JSON document data and writes each result on its own
// line, as gh's --jq does: a string as its text (jq -r), anything else as
// compact JSON. The data's strings were cleaned before the run; what the
// expression makes of them is printed as made. w gets nothing unless the
// whole run succeeds within its bounds.
func (q *query) Run(w io.Writer, data []byte) error {
	doc, err := render.Document(data, func(n json.Number) (any, error) { return n, nil })
	if err != nil {
		return err
	}
	run, stop := q.bounds.Start(len(data))
	defer stop()
	iter := q.code.RunWithContext(run.Context(), doc)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := v.(error); ok {
			if h, ok := err.(*gojq.HaltError); ok && h.Value() == nil {
				break // halt: stop here, without an error
			}
			if bound := run.Err(); bound != nil {
				return bound
			}
			return err
		}
		line, ok := v.(string)
		if !ok {
			out, err := gojq.Marshal(v)
			if err != nil {
				return err
			}
			line = string(out)
		}
		if _, err := run.WriteString(line + "\n"); err != nil {
			return run.Err()
		}
	}
	_, err = w.Write(run.Bytes())
	return err
}
