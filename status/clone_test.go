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

// change changes the target-th value fill reaches in v (k counts them):
// a value to another, a pointer to nil, a list or map to an empty one or,
// with none, to nil. It reports whether it reached the target.
func change(v reflect.Value, target int, k *int, none bool) bool {
	if v.Kind() == reflect.Struct && v.Type() != reflect.TypeFor[time.Time]() {
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && change(v.Field(i), target, k, none) {
				return true
			}
		}
		return false
	}
	at := *k
	*k++
	switch v.Kind() {
	case reflect.Pointer:
		if at == target {
			v.SetZero()
			return true
		}
		return change(v.Elem(), target, k, none)
	case reflect.Slice, reflect.Map:
		if at == target {
			if none {
				v.SetZero()
			} else if v.Kind() == reflect.Slice {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			} else {
				v.Set(reflect.MakeMap(v.Type()))
			}
			return true
		}
		if v.Kind() == reflect.Map {
			return false // its entries are keys and values, changed as a whole above
		}
		for i := range v.Len() {
			if change(v.Index(i), target, k, none) {
				return true
			}
		}
		return false
	case reflect.Struct: // a time
		if at == target {
			v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		}
		return at == target
	}
	if at != target {
		return false
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(v.Int() + 1)
	case reflect.Uint8:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 1)
	default:
		panic("change: no case for " + v.Type().String())
	}
	return true
}

// TestSameAsSeesEveryField: a status with any one field changed (a list
// emptied or made nil) is not the same as before, as reflect.DeepEqual
// says; one unchanged, or a clone, is.
func TestSameAsSeesEveryField(t *testing.T) {
	filled := func() *Status {
		var s Status
		n := 0
		fill(reflect.ValueOf(&s).Elem(), &n)
		return &s
	}
	if s := filled(); !s.sameAs(filled()) || !s.sameAs(s.Clone()) {
		t.Fatal("a status is not the same as its equal, or its clone")
	}
	changed := 0
	for _, none := range []bool{false, true} {
		for target := 0; ; target, changed = target+1, changed+1 {
			s := filled()
			k := 0
			if !change(reflect.ValueOf(s).Elem(), target, &k, none) {
				break
			}
			if was := filled(); s.sameAs(was) || reflect.DeepEqual(*s, *was) {
				t.Errorf("value %d changed (none %v), still the same: %+v", target, none, *s)
			}
		}
	}
	if changed < 100 {
		t.Errorf("only %d values changed", changed)
	}
}
