package gemini

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"jig/status"
)

// MaxInput bounds what a hook reads of its stdin: AfterTool's holds the
// call's arguments (a whole file written) before its response.
const MaxInput = 32 << 20

// Input is what Gemini CLI pipes to a hook: the fields jig reads. A tool's
// arguments, the prompt, the reply and the request's messages are not
// fields here: ReadInput passes over them without keeping them.
type Input struct {
	SessionID        string `json:"session_id"`
	TranscriptPath   string `json:"transcript_path"`
	CWD              string `json:"cwd"`
	Event            string `json:"hook_event_name"`
	ToolName         string `json:"tool_name"`
	NotificationType string `json:"notification_type"` // Notification's: ToolPermission
	Source           string `json:"source"`            // SessionStart's: startup, resume, clear
	// Model is BeforeModel's llm_request.model.
	Model string `json:"-"`
	// Written is AfterTool's tool_response.returnDisplay of a file
	// change: its path and whether the call created the file.
	Written *struct {
		FilePath  string `json:"filePath"`
		IsNewFile bool   `json:"isNewFile"`
	} `json:"-"`
}

// ReadInput reads one hook's JSON object from r, at most MaxInput bytes,
// key by key: it keeps the fields of Input and stops reading once it has
// what the event needs: BeforeModel's model (the messages after it are
// never read), or a call's tool when its arguments follow (Gemini CLI
// sends them after it; AfterTool's response follows them). Gemini CLI
// takes a hook that leaves its stdin unread. A session id and an event
// name are required. On an error, in is what was read before it (nil when
// nothing was): Refusal answers a BeforeTool that cannot be read.
func ReadInput(r io.Reader) (in *Input, err error) {
	dec := json.NewDecoder(io.LimitReader(r, MaxInput))
	in = &Input{}
	defer func() {
		if err != nil && in.Event == "" {
			in = nil
		}
	}()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return in, errors.New("not a JSON object")
	}
	fields := map[string]*string{"session_id": &in.SessionID, "transcript_path": &in.TranscriptPath, "cwd": &in.CWD,
		"hook_event_name": &in.Event, "tool_name": &in.ToolName, "notification_type": &in.NotificationType,
		"source": &in.Source}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return in, errors.New("not a JSON object")
		}
		key, _ := t.(string)
		switch {
		case fields[key] != nil:
			if err := dec.Decode(fields[key]); err != nil {
				return in, fmt.Errorf("field %s: not a string", key)
			}
		case key == "llm_request":
			if err := readModel(dec, in); err != nil {
				return in, err
			}
			if in.Model != "" {
				return in.check()
			}
		case key == "tool_input" && in.Event != "AfterTool" && in.Event != "" && in.ToolName != "":
			// every field BeforeTool needs came before its arguments,
			// which may be a whole file: never read, never too long to
			// refuse the call
			return in.check()
		case key == "tool_response":
			var resp struct {
				ReturnDisplay json.RawMessage `json:"returnDisplay"`
			}
			if err := dec.Decode(&resp); err != nil {
				return in, errors.New("field tool_response: not JSON")
			}
			if len(resp.ReturnDisplay) > 0 && resp.ReturnDisplay[0] == '{' {
				json.Unmarshal(resp.ReturnDisplay, &in.Written)
			}
		default:
			if err := skip(dec); err != nil {
				return in, errors.New("not a JSON object")
			}
		}
	}
	return in.check()
}

func (in *Input) check() (*Input, error) {
	switch {
	case in.SessionID == "":
		return in, errors.New("no session_id")
	case len(in.SessionID) > status.MaxID:
		return in, fmt.Errorf("session_id longer than %d bytes", status.MaxID)
	case in.Event == "":
		return in, errors.New("no hook_event_name")
	}
	return in, nil
}

// Refusal is the answer to a hook whose input could not be read (in is
// what ReadInput read of it): a BeforeTool is refused, since jig cannot
// tell which call it is (fail closed); any other event gets none.
func Refusal(in *Input) []byte {
	if in == nil || in.Event != "BeforeTool" {
		return nil
	}
	return deny{}.Deny(nil, "jig: cannot read this hook's input, so the call is refused")
}

// readModel reads llm_request up to its model, and no further once it has
// it; a request without one is passed over whole.
func readModel(dec *json.Decoder, in *Input) error {
	t, err := dec.Token()
	if err != nil {
		return errors.New("field llm_request: not JSON")
	}
	if t != json.Delim('{') {
		return nil // a scalar: passed over
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return errors.New("field llm_request: not JSON")
		}
		if k == "model" {
			if dec.Decode(&in.Model) != nil {
				return errors.New("field llm_request.model: not a string")
			}
			if in.Model != "" {
				return nil
			}
			continue
		}
		if skip(dec) != nil {
			return errors.New("field llm_request: not JSON")
		}
	}
	_, err = dec.Token() // the closing brace
	return err
}

// skip passes over one value, token by token: nothing of it is kept.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
