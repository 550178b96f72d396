package gemini

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"jig/hook"
	"jig/status"
)

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

// ReadInput reads one hook's JSON object from r, at most hook.MaxInput bytes,
// key by key: it keeps the fields of Input and stops reading once it has
// what the event needs: BeforeModel's model (the messages after it are
// never read), or a call's tool when its arguments follow (Gemini CLI
// sends them after it; AfterTool's response follows them). Gemini CLI
// takes a hook that leaves its stdin unread. A session id and an event
// name are required. On an error, in is what was read before it (nil when
// nothing was): Refusal answers a BeforeTool that cannot be read.
func ReadInput(r io.Reader) (in *Input, err error) {
	dec := json.NewDecoder(io.LimitReader(r, hook.MaxInput))
	in = &Input{}
	defer func() {
		if err != nil && in.Event == "" {
			in = nil
		}
	}()
	fields := map[string]*string{"session_id": &in.SessionID, "transcript_path": &in.TranscriptPath, "cwd": &in.CWD,
		"hook_event_name": &in.Event, "tool_name": &in.ToolName, "notification_type": &in.NotificationType,
		"source": &in.Source}
	err = hook.Object(dec, func(key string) (bool, error) {
		switch {
		case fields[key] != nil:
			if err := dec.Decode(fields[key]); err != nil {
				return false, fmt.Errorf("field %s: not a string", key)
			}
		case key == "llm_request":
			err := readModel(dec, in)
			return in.Model != "", err
		case key == "tool_input" && in.Event != "AfterTool" && in.Event != "" && in.ToolName != "":
			// every field BeforeTool needs came before its arguments,
			// which may be a whole file: never read, never too long to
			// refuse the call
			return true, nil
		case key == "tool_response":
			var resp struct {
				ReturnDisplay json.RawMessage `json:"returnDisplay"`
			}
			if err := dec.Decode(&resp); err != nil {
				return false, errors.New("field tool_response: not JSON")
			}
			if len(resp.ReturnDisplay) > 0 && resp.ReturnDisplay[0] == '{' {
				json.Unmarshal(resp.ReturnDisplay, &in.Written)
			}
		default:
			if err := hook.Skip(dec); err != nil {
				return false, errors.New("not a JSON object")
			}
		}
		return false, nil
	})
	if err != nil {
		return in, err
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
	return deny{}.Deny(nil, hook.Unreadable)
}

// readModel reads llm_request up to its model, and no further once it has
// it; a request without one is passed over whole, as is a scalar.
func readModel(dec *json.Decoder, in *Input) error {
	if t, err := dec.Token(); err != nil {
		return errors.New("field llm_request: not JSON")
	} else if t != json.Delim('{') {
		return nil
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
		if hook.Skip(dec) != nil {
			return errors.New("field llm_request: not JSON")
		}
	}
	_, err := dec.Token() // the closing brace
	return err
}
