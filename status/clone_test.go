package status

import (
	"reflect"
	"testing"
	"time"
)

// fill sets every exported field reachable from v: pointers to filled
// values, lists and maps of two filled entries, so a field Clone forgets
// is one this test finds shared.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(int64(*n), 0).UTC()))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.String:
		v.SetString("v" + string(rune('a'+*n%26)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(*n))
	case reflect.Uint8:
		v.SetUint(uint64('a' + *n%26))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	default:
		panic("fill: no case for " + v.Type().String())
	}
}

// shared names the first pointer, list or map a and b share.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := range a.Len() {
			if p := shared(a.Index(i), b.Index(i), path+"[]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() && a.Type() != reflect.TypeFor[time.Time]() {
				if p := shared(a.Field(i), b.Field(i), path+"."+f.Name); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

func TestCloneSharesNothing(t *testing.T) {
	var s Status
	n := 0
	fill(reflect.ValueOf(&s).Elem(), &n)
	c := s.Clone()
	if !reflect.DeepEqual(*c, s) {
		t.Fatalf("the clone differs:\n%+v\n%+v", *c, s)
	}
	if p := shared(reflect.ValueOf(c).Elem(), reflect.ValueOf(&s).Elem(), "Status"); p != "" {
		t.Errorf("the clone shares %s", p)
	}
	var empty Status
	if c := empty.Clone(); !reflect.DeepEqual(*c, empty) {
		t.Errorf("an empty status's clone: %+v", *c)
	}
	empty.Outputs, empty.Terminals = []Output{}, []TerminalID{}
	if c := empty.Clone(); c.Outputs == nil || c.Terminals == nil {
		t.Error("an empty list cloned as none: the file would say null for []")
	}
}
