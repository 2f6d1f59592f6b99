package temporal

import (
	"fmt"

	"github.com/rs/zerolog"
)

// logAdapter sends the SDK's logs to zerolog. The SDK is chatty at info
// (every poller start), so its info goes to debug.
type logAdapter struct{ l zerolog.Logger }

func (a logAdapter) Debug(msg string, kv ...any) { a.emit(a.l.Debug(), msg, kv) }
func (a logAdapter) Info(msg string, kv ...any)  { a.emit(a.l.Debug(), msg, kv) }
func (a logAdapter) Warn(msg string, kv ...any)  { a.emit(a.l.Warn(), msg, kv) }
func (a logAdapter) Error(msg string, kv ...any) { a.emit(a.l.Error(), msg, kv) }

func (a logAdapter) emit(ev *zerolog.Event, msg string, kv []any) {
	for i := 0; i+1 < len(kv); i += 2 {
		ev = ev.Interface(fmt.Sprint(kv[i]), kv[i+1])
	}
	ev.Str("from", "temporal").Msg(msg)
}
