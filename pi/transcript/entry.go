package transcript

// This file turns one line into the few facts jig keeps. Field names follow
// Pi's session format (reference: pi.md §2); anything else is passed over.

// usageVals is a Usage object: token counts and, when priced, the cost.
type usageVals struct {
	present                              bool
	input, output, cacheRead, cacheWrite float64
	total                                float64
	cost                                 float64
	priced                               bool
}

// contextTokens is Pi's calculateContextTokens: totalTokens, else the sum.
func (u *usageVals) contextTokens() int64 {
	if u.total != 0 {
		return int64(u.total)
	}
	return int64(u.input + u.output + u.cacheRead + u.cacheWrite)
}

func (s *scanner) usage(u *usageVals) bool {
	if s.peek() != '{' {
		return s.skip()
	}
	u.present = true
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "input":
			return s.num(&u.input, nil)
		case "output":
			return s.num(&u.output, nil)
		case "cacheRead":
			return s.num(&u.cacheRead, nil)
		case "cacheWrite":
			return s.num(&u.cacheWrite, nil)
		case "totalTokens":
			return s.num(&u.total, nil)
		case "cost":
			if s.peek() != '{' {
				return s.skip()
			}
			return s.object(func(k []byte) bool {
				if string(k) == "total" {
					return s.num(&u.cost, &u.priced)
				}
				return s.skip()
			})
		}
		return s.skip()
	})
}

// toolCall is one tool-call block: Pi's {type:"toolCall", id, name,
// arguments} or the Anthropic-style {type:"tool_use", id, name, input}.
type toolCall struct {
	id, name string
	path     string // arguments.path, the only argument value jig keeps
	edits    int    // len(arguments.edits)
	oldText  bool   // the legacy single edit {path, oldText, newText}
	ranged   bool   // read with offset or limit
}

// content is what a content field (a string or a list of blocks) adds up to.
type content struct {
	isString                 bool
	strChars                 int
	textChars, thinkingChars int
	callChars                int // name + JSON of arguments, toolCall blocks only
	images                   int
	toolCalls                []toolCall
}

func (s *scanner) content(c *content) bool {
	switch s.peek() {
	case '"':
		n, ok := s.strLen()
		c.isString, c.strChars = true, n
		return ok
	case '[':
	default:
		return s.skip()
	}
	return s.array(func() bool {
		if s.peek() != '{' {
			return s.skip()
		}
		var typ, id, name, alias, aliasName string
		var textLen, thinkLen = -1, -1
		var argsLen int
		var tc toolCall
		haveArgs := false
		ok := s.object(func(k []byte) bool {
			switch string(k) {
			case "type":
				return s.word(&typ)
			case "text":
				n, ok := s.strLen()
				textLen = n
				return ok
			case "thinking":
				n, ok := s.strLen()
				thinkLen = n
				return ok
			case "id":
				return s.strOr(&id)
			case "toolCallId":
				return s.strOr(&alias)
			case "name":
				return s.word(&name)
			case "toolName":
				return s.word(&aliasName)
			case "arguments", "input":
				if haveArgs && string(k) == "input" {
					return s.skip()
				}
				haveArgs = true
				start := s.i
				ok := s.args(&tc)
				argsLen = utf16Len(s.b[start:s.i], 0)
				return ok
			}
			return s.skip()
		})
		if !ok {
			return false
		}
		switch typ {
		case "text":
			if textLen > 0 {
				c.textChars += textLen
			}
		case "thinking":
			if thinkLen > 0 {
				c.thinkingChars += thinkLen
			}
		case "image":
			c.images++
		case "toolCall", "tool_use":
			if id == "" {
				id = alias
			}
			if name == "" {
				name = aliasName
			}
			tc.id, tc.name = id, name
			c.toolCalls = append(c.toolCalls, tc)
			if typ == "toolCall" { // Pi's estimate counts only its own shape
				c.callChars += len16(name) + argsLen
			}
		}
		return true
	})
}

// len16 is JavaScript's .length of a Go string.
func len16(s string) int { return utf16Len([]byte(s), 0) }

// args reads the few argument facts jig keeps: the path and the shape.
func (s *scanner) args(tc *toolCall) bool {
	if s.peek() != '{' {
		return s.skip()
	}
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "path":
			return s.strOr(&tc.path)
		case "edits":
			if s.peek() != '[' {
				return s.skip()
			}
			return s.array(func() bool { tc.edits++; return s.skip() })
		case "oldText":
			tc.oldText = true
		case "offset", "limit":
			tc.ranged = true
		}
		return s.skip()
	})
}

// message is an entry's `message`.
type message struct {
	role, provider, model, stopReason string
	toolCallID, toolName              string
	isError                           bool
	timestamp                         float64
	hasTimestamp                      bool
	usage                             usageVals // an assistant's; 1.x toolResult's nested work
	content                           content
	commandLen, outputLen             int
}

func (s *scanner) message(m *message) bool {
	if s.peek() != '{' {
		return s.skip()
	}
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "role":
			return s.word(&m.role)
		case "content":
			return s.content(&m.content)
		case "provider":
			return s.word(&m.provider)
		case "model":
			return s.word(&m.model)
		case "stopReason":
			return s.word(&m.stopReason)
		case "usage":
			return s.usage(&m.usage)
		case "toolCallId":
			return s.strOr(&m.toolCallID)
		case "toolName":
			return s.word(&m.toolName)
		case "isError":
			return s.boolean(&m.isError)
		case "timestamp":
			return s.num(&m.timestamp, &m.hasTimestamp)
		case "command":
			n, ok := s.strLen()
			m.commandLen = max(n, 0)
			return ok
		case "output":
			n, ok := s.strLen()
			m.outputLen = max(n, 0)
			return ok
		}
		return s.skip()
	})
}

// line is one parsed line: an entry or the header.
type line struct {
	typ, timestamp   string
	id, parentID     rawText // read into strings only where kept
	hasID, hasParent bool

	// header
	version                                       float64
	cwd, parentSession, branchedFrom              string
	provider, modelID, thinkingLevel, modelLegacy string

	// compaction, branch_summary
	firstKeptIndex    float64
	hasFirstKeptIndex bool
	firstKeptID       string
	summaryLen        int

	name    string // session_info
	hasName bool
	usage   usageVals // usage entries, compaction/branch_summary in 1.x
	content content   // custom_message
	message message
	hasMsg  bool
}

// parseLine reads b as one JSON object into l. It reports false for
// anything JSON.parse would reject or that is not an object.
func parseLine(s *scanner, b []byte, l *line) bool {
	*l = line{summaryLen: -1}
	s.b, s.i = b, 0
	s.ws()
	ok := s.object(func(k []byte) bool {
		switch string(k) {
		case "type":
			return s.word(&l.typ)
		case "id":
			l.hasID = s.peek() == '"'
			return s.rawOr(&l.id)
		case "parentId":
			l.hasParent = s.peek() == '"'
			return s.rawOr(&l.parentID)
		case "timestamp":
			return s.strOr(&l.timestamp)
		case "message":
			l.hasMsg = s.peek() == '{'
			return s.message(&l.message)
		case "version":
			return s.num(&l.version, nil)
		case "cwd":
			return s.strOr(&l.cwd)
		case "parentSession":
			return s.strOr(&l.parentSession)
		case "branchedFrom":
			return s.strOr(&l.branchedFrom)
		case "provider":
			return s.word(&l.provider)
		case "modelId":
			return s.word(&l.modelID)
		case "model":
			return s.word(&l.modelLegacy)
		case "thinkingLevel":
			return s.word(&l.thinkingLevel)
		case "firstKeptEntryIndex":
			return s.num(&l.firstKeptIndex, &l.hasFirstKeptIndex)
		case "firstKeptEntryId":
			return s.strOr(&l.firstKeptID)
		case "summary":
			n, ok := s.strLen()
			l.summaryLen = n
			return ok
		case "name":
			l.hasName = s.peek() == '"'
			return s.strOr(&l.name)
		case "usage":
			return s.usage(&l.usage)
		case "content":
			return s.content(&l.content)
		}
		return s.skip()
	})
	return ok && s.end()
}

// chars is Pi's estimateTokens character count for a message of this role
// (compaction.ts estimateTokens): 0 for roles it does not count.
func (c *content) chars(role string) int {
	switch role {
	case "user":
		if c.isString {
			return c.strChars
		}
		return c.textChars
	case "assistant":
		if c.isString {
			return 0
		}
		return c.textChars + c.thinkingChars + c.callChars
	case "toolResult", "custom", "hookMessage":
		if c.isString {
			return c.strChars
		}
		return c.textChars + 4800*c.images
	}
	return 0
}

func estimate(chars int) int64 { return int64((chars + 3) / 4) }
