package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cmd/jig is flags in, one package call, output out (issue 18): the
// budgets below keep domain logic from growing back into it.
const (
	maxLines     = 3050 // non-test Go lines in cmd/jig (3000 until issue 27's agents: Gemini CLI's commands take 75)
	maxEnvMethod = 15   // methods of env
	maxFuncLines = 40   // a function or closure, a command's declaration aside
)

// TestCommandsStayThin parses cmd/jig's own files and holds it to its
// budgets. A function's length leaves out the `cli.Command{…}` literals
// it declares (names, flags, usage); each closure, an Action among them,
// is measured as a function of its own.
func TestCommandsStayThin(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	lines, methods := 0, 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(src), "\n")
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if isEnvMethod(fn) {
				methods++
			}
			if n := funcLines(fset, fn); n > maxFuncLines {
				t.Errorf("%s: func %s is %d lines, past %d: move its logic into a package", fset.Position(fn.Pos()), fn.Name.Name, n, maxFuncLines)
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					if l := funcLines(fset, lit); l > maxFuncLines {
						t.Errorf("%s: a closure in %s is %d lines, past %d", fset.Position(lit.Pos()), fn.Name.Name, l, maxFuncLines)
					}
				}
				return true
			})
		}
	}
	if lines > maxLines {
		t.Errorf("cmd/jig holds %d lines of non-test Go, past %d: move domain logic into its package", lines, maxLines)
	}
	if methods > maxEnvMethod {
		t.Errorf("env has %d methods, past %d: a function that needs no env takes what it needs", methods, maxEnvMethod)
	}
}

func isEnvMethod(fn *ast.FuncDecl) bool {
	if fn.Recv == nil || len(fn.Recv.List) != 1 {
		return false
	}
	star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "env"
}

// funcLines is how many lines fn spans, less those of the cli.Command
// literals in it: a command's declaration is no logic, and the closures
// in it are measured on their own.
func funcLines(fset *token.FileSet, fn ast.Node) int {
	span := func(n ast.Node) int { return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1 }
	n := span(fn)
	ast.Inspect(fn, func(node ast.Node) bool {
		if lit, ok := node.(*ast.CompositeLit); ok && isCommandType(lit.Type) {
			n -= span(lit)
			return false
		}
		return true
	})
	return n
}

// isCommandType reports whether t is cli.Command, the type of a literal
// `&cli.Command{…}`; the subcommands written in it go with it.
func isCommandType(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	if ok {
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "cli" && sel.Sel.Name == "Command"
	}
	return false
}
