package status

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Merge lays patch over base, both JSON objects: an object in the patch is
// merged key by key into the base's object, anything else (a list, a value,
// null) replaces what was there. Fields the patch does not name keep their
// values. This is how `jig session write` applies what the agent says live
// over the previous file, and the live agent over the transcript.
func Merge(base, patch []byte) ([]byte, error) {
	var b, p map[string]any
	if err := decodeObject(base, &b); err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	if err := decodeObject(patch, &p); err != nil {
		return nil, err
	}
	return json.Marshal(mergeObjects(b, p))
}

func mergeObjects(base, patch map[string]any) map[string]any {
	if base == nil {
		base = map[string]any{}
	}
	for k, pv := range patch {
		if po, ok := pv.(map[string]any); ok {
			if bo, ok := base[k].(map[string]any); ok {
				base[k] = mergeObjects(bo, po)
				continue
			}
		}
		base[k] = pv
	}
	return base
}

// decodeObject reads one JSON object (an empty input is an empty object).
func decodeObject(data []byte, into *map[string]any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		*into = map[string]any{}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("not a JSON object")
	}
	*into = obj
	return nil
}

// Decode reads a status document, saying which field is of the wrong type.
func Decode(data []byte) (*Status, error) {
	var s Status
	if err := json.Unmarshal(data, &s); err != nil {
		if te, ok := err.(*json.UnmarshalTypeError); ok {
			return nil, fmt.Errorf("field %s: %s is not a %s", te.Field, te.Value, te.Type)
		}
		return nil, err
	}
	s.raw = data
	return &s, nil
}
